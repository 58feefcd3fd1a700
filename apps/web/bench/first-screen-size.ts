// What `/` loads before it can draw, measured on the built app (`apps/web/dist`): the entry
// and what index.html preloads. Shared by the first screen's bench and its budget's test.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** The first screen's JavaScript budget (issue #7): 150 KB gzipped. */
export const FIRST_SCREEN_BUDGET_KB = 150;

/** The built app's folder. */
export const WEB_DIST = path.resolve(import.meta.dirname, '../dist');

/** The first screen's scripts and their sizes in bytes, raw and gzipped (level 9). */
export function firstScreenSize(dist = WEB_DIST) {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [
    ...new Set([...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]!)),
  ];
  let raw = 0;
  let gzipped = 0;
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(dist, file));
    raw += bytes.length;
    gzipped += gzipSync(bytes, { level: 9 }).length;
  }
  return { files, raw, gzipped };
}
