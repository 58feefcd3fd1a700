import { ConfigError, loadConfig } from './config';
import { createLogger, type Logger } from './logging/logger';

let log: Logger | undefined;
try {
  const config = loadConfig();
  log = createLogger(config.log);
  // A promise that failed with nobody to hear it (a library's background work, a fault we
  // missed) is logged, and the server goes on serving: Node's default would end the process,
  // every stream and request with it.
  process.on('unhandledRejection', (reason: unknown) => {
    const detail = reason instanceof Error ? reason.message : String(reason);
    log!.error({ err: reason }, `unhandled promise rejection: ${detail}`);
  });
  // Loaded once the configuration is known good: a bad setting is told at once.
  const { startServer } = await import('./server');
  const server = await startServer(config, log);
  log.info(`listening on ${server.url} (API under /api)`);
  const stop = () => {
    log!.info('stopping: ending the replies being written, then closing');
    // Past the deadline and a margin for closing the database, the process ends regardless.
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 5000).unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log!.error({ err: error }, 'the stop did not finish cleanly');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  // One clear line for a bad configuration; a full report for anything else.
  if (error instanceof ConfigError) console.error(`[mates] ${error.message}`);
  else if (log) log.fatal({ err: error }, `could not start: ${(error as Error).message}`);
  else console.error(error);
  process.exit(1);
}
