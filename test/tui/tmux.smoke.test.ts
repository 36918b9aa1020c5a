/**
 * The TUI as a person sees it: a real server on a temp data dir, `vectorize tui` in a tmux pane
 * at 80×24, keys sent with `send-keys`, the screen read with `capture-pane -p`. Every wait is
 * bounded and the server, tmux and the data dir are removed whatever happens.
 */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AdminClient } from '../../client/admin.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Runs the CLI from source, so the smoke test needs no build step.
const CLI_SCRIPT =
  `import { main } from ${JSON.stringify(path.join(ROOT, 'cli/main.ts'))}; ` + 'process.exitCode = await main(process.argv.slice(1));';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs: number, last?: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.${last ? `\n${last()}` : ''}`);
    await sleep(100);
  }
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

t.test(
  'vectorize tui in tmux against a real server: create a key and see its secret once',
  { skip: hasTmux ? false : 'tmux is not installed (CI installs it)' },
  async (t) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vectorize-tui-smoke-'));
    const socket = `vectorize-tui-smoke-${process.pid}`;
    const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', timeout: 10_000 });
    const env = { ...process.env, HOST: '127.0.0.1', PORT: '0', VECTORIZE_DATA_DIR: dataDir, VECTORIZE_WORKERS: '1' };

    const server = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CLI_SCRIPT, 'serve'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let serverLog = '';
    server.stderr.on('data', (chunk: Buffer) => {
      serverLog += chunk.toString();
    });
    t.teardown(async () => {
      tmux('kill-server');
      if (server.exitCode === null) {
        server.kill('SIGTERM');
        const exited = await Promise.race([
          new Promise((resolve) => server.once('exit', () => resolve(true))),
          sleep(5000).then(() => false),
        ]);
        if (!exited) server.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    });

    const infoPath = path.join(dataDir, 'server.json');
    await until(
      'the server to write server.json',
      () => existsSync(infoPath) || server.exitCode !== null,
      90_000,
      () => serverLog,
    );
    t.equal(server.exitCode, null, 'the server is running');
    const info = JSON.parse(readFileSync(infoPath, 'utf8')) as { url: string };
    const admin = new AdminClient({ baseUrl: info.url, adminToken: readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim() });
    const account = await admin.createAccount({ name: 'Smoke Studio', plan: 'pro' });

    const tuiCommand = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', CLI_SCRIPT, 'tui', '--data-dir', dataDir]
      .map(shellQuote)
      .join(' ');
    // Ink draws nothing until exit when it believes it runs in CI (is-in-ci reads CI and
    // CONTINUOUS_INTEGRATION), and CI sets CI=true; the pane is an admin's terminal, so clear both.
    const paneEnv = 'CI=false CONTINUOUS_INTEGRATION=false';
    const started = tmux(
      'new-session',
      '-d',
      '-s',
      'tui',
      '-x',
      '80',
      '-y',
      '24',
      `cd ${shellQuote(ROOT)} && ${paneEnv} ${tuiCommand}; echo TUI-EXITED-$?; sleep 30`,
    );
    t.equal(started.status, 0, `tmux started: ${started.stderr}`);
    const capture = () => tmux('capture-pane', '-p', '-t', 'tui').stdout ?? '';
    const screenIncludes = (text: string, timeoutMs = 30_000) =>
      until(JSON.stringify(text), () => capture().includes(text) && capture(), timeoutMs, capture);

    await screenIncludes('● online', 60_000);
    // "online" comes from the health poll, the list from its own request: either may be drawn first.
    let screen = await screenIncludes('Smoke Studio');
    t.match(screen, 'Smoke Studio', 'the accounts screen lists the account');
    t.ok(
      screen.split('\n').every((line) => line.length <= 80),
      'nothing wider than the pane',
    );

    tmux('send-keys', '-t', 'tui', '2');
    await screenIncludes('No keys yet');
    tmux('send-keys', '-t', 'tui', 'n');
    await screenIncludes('Name for the new key of Smoke Studio');
    tmux('send-keys', '-t', 'tui', '-l', 'smoke');
    await screenIncludes('smoke');
    tmux('send-keys', '-t', 'tui', 'Enter');
    await screenIncludes('Scope of the new key of Smoke Studio');
    tmux('send-keys', '-t', 'tui', 'Enter');
    screen = await screenIncludes('shown this once');
    const secret = /service_sk_live_[0-9A-Za-z]+/.exec(screen)?.[0];
    t.ok(secret, 'the secret is on screen');
    t.match(secret!, /^service_sk_live_[0-9A-Za-z]{32}$/, 'whole, not cut');
    const keys = await admin.listKeys({ accountId: account.id });
    t.equal(keys.length, 1, 'the server has the key');
    t.equal(keys[0].last4, secret!.slice(-4), 'and it is the one shown');

    tmux('send-keys', '-t', 'tui', 'Space');
    screen = await until(
      'the secret to be hidden',
      () => !capture().includes('shown this once') && capture().includes(`…${keys[0].last4}`) && capture(),
      10_000,
      capture,
    );
    t.notOk(screen.includes(secret!), 'gone after dismissing; the list shows the masked key');

    tmux('send-keys', '-t', 'tui', 'q');
    screen = await screenIncludes('TUI-EXITED-', 10_000);
    t.match(screen, 'TUI-EXITED-0', 'q quits with status 0');
    t.notMatch(screen, 'Vectorize admin', 'the alternate screen is left, so the shell looks as before');
  },
);
