/**
 * `vectorize tui [--url URL] [--data-dir DIR] [--screen NAME]`: the admin terminal UI against the
 * running server. It talks to the server's loopback-only admin API and never opens the database.
 */
import { parseArgs } from 'node:util';
import { AdminClient } from '../../client/admin.js';
import type { CommandIo } from '../main.js';

const HELP = `Usage: vectorize tui [--url URL] [--data-dir DIR] [--screen NAME]

Opens the admin terminal UI of the server running on this machine.

  --data-dir DIR  the server's data dir (default: VECTORIZE_DATA_DIR or ./data); the TUI reads
                  server.json (the server's address) and admin.token from it
  --url URL       the server's address, when server.json does not name the one to use
  --screen NAME   start on accounts, keys, webhooks, jobs or reports

Keys: 1-5 or Tab/Shift-Tab switch screens, arrows or j/k move, Enter opens, Esc goes back, q quits.
`;

export async function run(args: string[], io: CommandIo): Promise<number> {
  let values: { url?: string; 'data-dir'?: string; screen?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        url: { type: 'string' },
        'data-dir': { type: 'string' },
        screen: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    io.stderr.write(`vectorize tui: ${(error as Error).message}\n`);
    return 2;
  }
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  // Ink (and React) load only here, so other subcommands stay light.
  const [{ resolveAdminConnection, NoServerError }, { startTui, SCREENS }] = await Promise.all([
    import('../../tui/connect.js'),
    import('../../tui/index.js'),
  ]);
  const screen = SCREENS.find((entry) => entry.id === values.screen);
  if (values.screen !== undefined && !screen) {
    io.stderr.write(`vectorize tui: --screen must be one of ${SCREENS.map((entry) => entry.id).join(', ')}\n`);
    return 2;
  }
  const stdin = io.stdin as NodeJS.ReadStream;
  if (!stdin.isTTY) {
    io.stderr.write('vectorize tui: needs an interactive terminal (run it in a terminal or over ssh -t)\n');
    return 2;
  }
  let connection;
  try {
    connection = await resolveAdminConnection({
      url: values.url,
      dataDir: values['data-dir'] ?? io.env.VECTORIZE_DATA_DIR ?? './data',
    });
  } catch (error) {
    if (error instanceof NoServerError) {
      io.stderr.write(`vectorize tui: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const client = new AdminClient({ baseUrl: connection.baseUrl, adminToken: connection.adminToken, timeoutMs: 10_000 });
  const instance = startTui({
    client,
    stdin,
    stdout: io.stdout as NodeJS.WriteStream,
    stderr: io.stderr as NodeJS.WriteStream,
    initialScreen: screen?.id,
  });
  await instance.waitUntilExit();
  return 0;
}
