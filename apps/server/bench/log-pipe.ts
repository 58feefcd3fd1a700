// Where a bench's server writes its log: a pipe, as a service's standard output is under Docker
// or systemd, read by a process of its own that keeps nothing. (A write to /dev/null costs next
// to nothing, so a bench logging there would not see what logging costs in production.)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { logDestination } from '../src/logging/logger';

/** The server's log destination, as `createLogger` takes it: production's, into a pipe. */
export function logPipe() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-bench-log-'));
  const fifo = path.join(folder, 'log');
  execFileSync('mkfifo', [fifo]);
  const reader = spawn(
    process.execPath,
    ['-e', `require('fs').createReadStream(${JSON.stringify(fifo)}).resume()`],
    { stdio: 'ignore' },
  );
  process.once('exit', () => {
    reader.kill();
    fs.rmSync(folder, { recursive: true, force: true });
  });
  return logDestination(fifo);
}
