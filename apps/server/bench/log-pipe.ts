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
  // It reads until the server's end of the pipe closes (at the latest when this process ends),
  // then removes the pipe. Unreferenced: it never keeps a finished bench alive, and it is never
  // killed first (a write, or the opening of the pipe, would then wait for a reader forever).
  const reader = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('fs');
       fs.createReadStream(${JSON.stringify(fifo)})
         .on('end', () => fs.rmSync(${JSON.stringify(folder)}, { recursive: true, force: true }))
         .resume();`,
    ],
    { stdio: 'ignore' },
  );
  reader.unref();
  return logDestination(fifo);
}
