/**
 * `vectorize migrate-db [--from DIR] [--to URL]`: a lowdb data dir's records into an empty
 * PostgreSQL database (server/migrate-db.ts). Defaults are the server's own variables, so the
 * command runs with the environment the PostgreSQL nodes will get.
 */
import type { CommandIo } from '../main.js';
import { parseCommandLine } from '../args.js';

const HELP = `Usage: vectorize migrate-db [--from DIR] [--to postgres://…]

Moves every record of a lowdb data dir (accounts, keys, jobs, folders, idempotency keys,
reports, webhooks, deliveries) into an empty PostgreSQL database, applying its migrations;
queued jobs get their queue entries. Uploads, results and secrets.key stay in the data dir,
which the PostgreSQL nodes then use as their VECTORIZE_DATA_DIR. db.json is only read.
Stop the lowdb server first; a target that already holds records is refused.

  --from DIR   the lowdb data dir (default VECTORIZE_DATA_DIR, else ./data)
  --to URL     the database (default VECTORIZE_DATABASE_URL)
`;

export async function run(args: string[], io: CommandIo): Promise<number> {
  let values: { from?: string; to?: string; help?: boolean };
  try {
    ({ values } = parseCommandLine('migrate-db', args, {
      from: { type: 'string' },
      to: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    }));
  } catch (error) {
    io.stderr.write(`vectorize migrate-db: ${(error as Error).message}\n`);
    return 2;
  }
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const { loadConfig, ConfigError } = await import('../../server/config.js');
  let config;
  try {
    config = loadConfig({
      ...io.env,
      ...(values.from === undefined ? {} : { VECTORIZE_DATA_DIR: values.from }),
      ...(values.to === undefined ? {} : { VECTORIZE_DATABASE_URL: values.to }),
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`vectorize migrate-db: ${error.message}\n`);
    return 2;
  }
  if (!config.databaseUrl) {
    io.stderr.write('vectorize migrate-db: no target: pass --to postgres://… or set VECTORIZE_DATABASE_URL\n');
    return 2;
  }
  const { migrateLowdbToPostgres } = await import('../../server/migrate-db.js');
  try {
    const report = await migrateLowdbToPostgres(config.dataDir, { databaseUrl: config.databaseUrl, maxAttempts: config.maxAttempts });
    const moved = Object.entries(report.counts)
      .map(([name, count]) => `${name} ${count}`)
      .join(', ');
    io.stdout.write(`moved ${moved}\n`);
    io.stdout.write(`queued jobs given queue entries: ${report.requeued}\n`);
    if (report.missingBlobs > 0)
      io.stdout.write(`jobs whose upload or result file is missing from ${config.dataDir}: ${report.missingBlobs}\n`);
    io.stdout.write(
      `done: start the nodes with VECTORIZE_DATABASE_URL and VECTORIZE_DATA_DIR=${config.dataDir}; db.json is no longer used\n`,
    );
    return 0;
  } catch (error) {
    io.stderr.write(`vectorize migrate-db: ${(error as Error).message}\n`);
    return 1;
  }
}
