/** `vectorize serve`: the /v1 API on HOST:PORT with data under VECTORIZE_DATA_DIR. */
import type { CommandIo } from '../main.js';

const HELP = `Usage: vectorize serve

Serves the /v1 API. Configuration comes from the environment (see docs/operations.md, "Configuration"):
  HOST (127.0.0.1)  PORT (8080)  VECTORIZE_DATA_DIR (./data)  VECTORIZE_WORKERS (CPU cores) …
`;

export async function run(args: string[], io: CommandIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(HELP);
    return 0;
  }
  const { loadConfig, ConfigError } = await import('../../server/config.js');
  const { startServer } = await import('../../server/runtime.js');
  const { LockedError } = await import('../../server/adapters/lock.js');
  let config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`vectorize serve: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  let running;
  try {
    running = await startServer(config, io.stdout);
  } catch (error) {
    if (error instanceof LockedError) {
      io.stderr.write(`vectorize serve: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (config.role === 'worker') {
    const health = config.healthPort === null ? 'no HTTP' : `health on http://${config.host}:${config.healthPort}/healthz`;
    io.stderr.write(`Vectorize worker tracing from the queue, ${config.workers} at a time (${health})\n`);
  } else io.stderr.write(`Vectorize API listening on ${running.url} (docs: ${running.url}/docs/swagger)\n`);
  return new Promise<number>((resolve) => {
    const shutdown = (signal: string) => {
      running.log.info('shutting down', { signal });
      running.stop().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  });
}
