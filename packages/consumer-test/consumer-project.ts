import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));

/** The published packages, by folder under `packages/`. */
export const PACKAGES = ['api-client', 'state-machines', 'ui'] as const;

/** A fresh npm project outside the workspace. */
export interface ConsumerProject {
  /** The project with every package, its peers and the TypeScript types. */
  dir: string;
  /** A project with `@mates/api-client` alone: msw, its optional peer, is not installed. */
  withoutMswDir: string;
}

/** What an ordinary shell has: pnpm's own `npm_*` settings must not steer npm. */
function plainEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_(config|package|lifecycle)_/i.test(key)),
  );
}

/** Runs a command; resolves to its exit code and output (a failure is an answer, not a throw). */
export async function exec(command: string, args: string[], cwd: string) {
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd,
      env: plainEnv(),
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failure.code === 'number' ? failure.code : 1,
      stdout: failure.stdout ?? '',
      stderr: failure.stderr ?? '',
    };
  }
}

async function mustRun(command: string, args: string[], cwd: string): Promise<string> {
  const result = await exec(command, args, cwd);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

async function readJson(path: string): Promise<Record<string, Record<string, string>>> {
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, Record<string, string>>;
}

/** The versions the workspace develops against, so the consumer gets the same majors. */
async function peerSpecs(): Promise<string[]> {
  const dev = async (folder: string) =>
    (await readJson(join(repoRoot, folder, 'package.json'))).devDependencies ?? {};
  const [ui, machines, client, root] = await Promise.all([
    dev('packages/ui'),
    dev('packages/state-machines'),
    dev('packages/api-client'),
    dev('.'),
  ]);
  const pick = (deps: Record<string, string>, names: string[]) =>
    names.map((name) => `${name}@${deps[name]}`);
  return [
    ...pick(ui, ['react', 'react-dom', '@types/react', '@types/react-dom']),
    ...pick(machines, ['xstate', '@xstate/store']),
    ...pick(client, ['msw']),
    ...pick(root, ['@types/node']),
  ];
}

async function pack(folder: string, destination: string): Promise<string> {
  const dir = join(repoRoot, 'packages', folder);
  if (!existsSync(join(dir, 'dist', 'index.js'))) {
    throw new Error(`packages/${folder} is not built: run pnpm build (pnpm test does).`);
  }
  const { name, version } = (await readJson(join(dir, 'package.json'))) as unknown as {
    name: string;
    version: string;
  };
  await mustRun('pnpm', ['pack', '--pack-destination', destination], dir);
  return join(destination, `${name.replace('@', '').replace('/', '-')}-${version}.tgz`);
}

async function npmProject(dir: string, specs: string[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
  );
  // The default npm cache is shared between runs: after the first, nothing is downloaded.
  await mustRun(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...specs],
    dir,
  );
}

/** Packs the three packages, installs them with npm into fresh projects, adds the fixtures. */
export async function createConsumerProject(): Promise<ConsumerProject> {
  const root = await mkdtemp(join(tmpdir(), 'mates-consumer-'));
  const tarballs = await Promise.all(PACKAGES.map((folder) => pack(folder, root)));
  const dir = join(root, 'consumer');
  const withoutMswDir = join(root, 'without-msw');
  await npmProject(dir, [...tarballs, ...(await peerSpecs())]);
  await npmProject(withoutMswDir, [tarballs[0]!]);
  for (const file of await readdir(fixtures)) {
    await copyFile(join(fixtures, file), join(dir, file));
  }
  return { dir, withoutMswDir };
}
