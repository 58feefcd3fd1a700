// Every benchmark writes what it measured as JSON under bench/results/ (not committed), and
// prints how the figures moved since the last run on this machine, so a change can be judged
// against the run before it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FOLDER = path.join(import.meta.dirname, 'results');

/** One measured row: a few labels (strings) and figures (numbers). */
export type ResultRow = Record<string, string | number>;

/** Where `name`'s results are kept. */
function fileOf(name: string) {
  return path.join(FOLDER, `${name}.json`);
}

/** The labels of a row: what identifies it across runs. */
function keyOf(row: ResultRow) {
  return Object.entries(row)
    .filter(([, value]) => typeof value === 'string')
    .map(([label, value]) => `${label}=${value}`)
    .join(' ');
}

/**
 * Saves `rows` as the latest results of benchmark `name` and prints, for every figure that
 * changed by more than 5%, its value in the previous run.
 */
export function saveResults(name: string, rows: ResultRow[]): void {
  const file = fileOf(name);
  const before = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { at: string; rows: ResultRow[] })
    : null;
  fs.mkdirSync(FOLDER, { recursive: true });
  const run = { at: new Date().toISOString(), machine: `${os.cpus().length} cores`, rows };
  fs.writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
  if (!before) {
    console.log(`Saved ${path.relative(process.cwd(), file)} (no earlier run to compare with).`);
    return;
  }
  const earlier = new Map(before.rows.map((row) => [keyOf(row), row]));
  const moves: string[] = [];
  for (const row of rows) {
    const old = earlier.get(keyOf(row));
    if (!old) continue;
    for (const [label, value] of Object.entries(row)) {
      const was = old[label];
      if (typeof value !== 'number' || typeof was !== 'number' || was === 0) continue;
      const change = (value - was) / Math.abs(was);
      if (Math.abs(change) > 0.05)
        moves.push(
          `  ${keyOf(row)} ${label}: ${was} → ${value} (${change > 0 ? '+' : ''}${Math.round(change * 100)}%)`,
        );
    }
  }
  console.log(
    `Saved ${path.relative(process.cwd(), file)}; compared with the run of ${before.at}:` +
      (moves.length ? `\n${moves.join('\n')}` : ' no figure moved more than 5%.'),
  );
}
