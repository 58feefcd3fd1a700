import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

// The static-Storybook check's global setup: the build its shares open, made once before any of
// them starts (two shares building at once would write over each other).

/** The repository, and where the static build is written. */
export const ROOT = path.resolve(import.meta.dirname, '..');
export const OUT = path.join(ROOT, 'storybook-static');

/** What the static build is made of: a file here newer than the build means building again. */
const SOURCES = ['.storybook', 'packages/ui/src', 'packages/api-client/src', 'apps/web/src'];

function newestSourceTime(): number {
  let newest = 0;
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      // Tests, this check and their configuration are not part of the build.
      if (/\.test\.tsx?$|^vitest\.|^static-storybook/.test(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const source of SOURCES) visit(path.join(ROOT, source));
  return newest;
}

/** Builds the static Storybook unless a build newer than every source is there already. */
export default function ensureBuild(): void {
  const index = path.join(OUT, 'index.json');
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs > newestSourceTime()) return;
  const build = spawnSync('pnpm', ['build-storybook'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) {
    throw new Error(`pnpm build-storybook failed:\n${build.stdout}\n${build.stderr}`);
  }
}
