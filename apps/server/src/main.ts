import { ConfigError, loadConfig } from './config';

const log = (line: string) => console.log(`[mates] ${line}`);

try {
  const config = loadConfig();
  // Loaded once the configuration is known good: a bad setting is told at once.
  const { startServer } = await import('./server');
  const server = await startServer(config, log);
  log(`listening on ${server.url} (API under /api)`);
  const stop = () => {
    log('stopping: ending the replies being written, then closing');
    // Past the deadline and a margin for closing the database, the process ends regardless.
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 5000).unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  // One clear line for a bad configuration; a full report for anything else.
  console.error(error instanceof ConfigError ? `[mates] ${error.message}` : error);
  process.exit(1);
}
