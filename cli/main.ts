/**
 * `vectorize`: one executable, subcommands as docs/cli.md lists them. Each subcommand lives in
 * cli/commands/<name>.ts and is imported only when used, so `vectorize convert` never loads hapi
 * and `vectorize serve` never loads Ink.
 */
export interface CommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
}

type CommandRunner = (args: string[], io: CommandIo) => Promise<number>;

const COMMANDS: Record<string, { summary: string; load: () => Promise<{ run: CommandRunner }> }> = {
  serve: { summary: 'run the /v1 API server (HOST, PORT, VECTORIZE_DATA_DIR)', load: () => import('./commands/serve.js') },
  convert: {
    summary: 'trace images or folders to SVG with the engine: convert IN… [-o OUT] [--jobs N] [--detail …]',
    load: () => import('./commands/convert.js'),
  },
  classify: { summary: "print the engine's image type for a file: classify IN", load: () => import('./commands/classify.js') },
  accounts: {
    summary: 'manage accounts: accounts create NAME --plan PLAN | list | set-plan ID PLAN',
    load: () => import('./commands/accounts.js'),
  },
  keys: { summary: 'manage API keys: keys create --account ID [--name N] | list | revoke ID', load: () => import('./commands/keys.js') },
  'migrate-db': {
    summary: 'move a lowdb data dir into PostgreSQL: migrate-db [--from DIR] [--to postgres://…]',
    load: () => import('./commands/migrate-db.js'),
  },
  tui: { summary: 'open the admin terminal UI against the running server', load: () => import('./commands/tui.js') },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`);
  return [
    'Usage: vectorize <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `vectorize <command> --help` for its options.',
    '',
  ].join('\n');
}

export async function main(
  argv: string[],
  io: CommandIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
  },
): Promise<number> {
  endQuietlyWhenOutputCloses(io.stdout);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage());
    return name === undefined ? 1 : 0;
  }
  if (name === '--version' || name === '-v') {
    const { createRequire } = await import('node:module');
    const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };
    io.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr.write(`vectorize: unknown command "${name}"\n${usage()}`);
    return 2;
  }
  const { run } = await command.load();
  return run(rest, io);
}

/**
 * `vectorize convert big.png | head -c 100`, `vectorize keys list | head -1`: the reader has what it
 * wanted and closed the pipe. Node ignores SIGPIPE, so the next write fails with EPIPE; the command
 * ends there, quietly, instead of dying on an unhandled 'error' event with a stack trace.
 */
const guardedOutputs = new WeakSet<NodeJS.WritableStream>();
function endQuietlyWhenOutputCloses(stdout: NodeJS.WritableStream): void {
  if (guardedOutputs.has(stdout)) return;
  guardedOutputs.add(stdout);
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
