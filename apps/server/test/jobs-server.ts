// A server process for the job tests (`jobs-processes.test.ts`): `src/main.ts`'s start, plus a
// job kind whose handler notes each start in $JOBS_RUNS_FILE and each failure hook in
// $JOBS_HOOKS_FILE. A payload `{ hang: 'first' }` hangs on its first run (until the process is
// killed), `{ hang: 'always' }` on every run (until its timeout).
import fs from 'node:fs';
import { loadConfig } from '../src/config';
import { startServer } from '../src/server';
import { createLogger } from '../src/logging/logger';

type Payload = { hang?: 'first' | 'always' };

const config = loadConfig();
const log = createLogger(config.log);
const server = await startServer(config, log, {
  jobs: { pollMs: 100, maintenanceSeconds: 1 },
});
server.deps.jobs.define<Payload, { pid: number; attempt: number }>(
  'test.process',
  async (job) => {
    fs.appendFileSync(process.env.JOBS_RUNS_FILE!, `${job.id} ${process.pid} ${job.attempt}\n`);
    const hang =
      job.payload.hang === 'always' || (job.payload.hang === 'first' && job.attempt === 0);
    if (hang) {
      await new Promise((_, reject) =>
        job.signal.addEventListener('abort', () => reject(job.signal.reason)),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { pid: process.pid, attempt: job.attempt };
  },
  {
    concurrency: 2,
    timeoutMs: Number(process.env.JOBS_TIMEOUT_MS ?? 3000),
    onFinallyFailed: async (job) => {
      fs.appendFileSync(process.env.JOBS_HOOKS_FILE!, `${job.id} ${job.error}\n`);
    },
  },
);
log.info(`listening on ${server.url}`);
const stop = () => void server.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
