import { ConfigError, loadConfig } from './config';
import { startServer } from './server';

const log = (line: string) => console.log(`[mates] ${line}`);

try {
  const config = loadConfig();
  const server = await startServer(config, log);
  log(`listening on ${server.url} (API under /api)`);
  const stop = () => {
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
