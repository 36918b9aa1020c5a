/** The data-dir lock dies with its holder: a pid that came back (pid 1 in a container) or went to another process does not hold it. */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { acquireLock, lockPath } from '../../../server/adapters/lock.js';
import { tempDir } from '../helpers.js';

const holderScript = fileURLToPath(new URL('../../fixtures/server/lock-holder.ts', import.meta.url));

t.test('a lock naming our own pid with another start time is stale (a restarted pid 1)', async (t) => {
  const dir = tempDir(t, 'lock');
  writeFileSync(lockPath(dir), `${process.pid}\n1\n${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}\n`);
  const lock = acquireLock(dir);
  t.match(readFileSync(lockPath(dir), 'utf8'), new RegExp(`^${process.pid}\\n\\d+\\n`), 'taken over and rewritten with our start time');
  t.throws(() => acquireLock(dir), { name: 'LockedError' }, 'a second writer in this process is still refused');
  lock.release();
});

t.test('a lock whose pid now belongs to another process is stale; the real holder is not', async (t) => {
  const dir = tempDir(t, 'lock');
  const other = spawn('sleep', ['30']);
  t.teardown(() => other.kill('SIGKILL'));
  await new Promise((resolve) => other.once('spawn', resolve));
  writeFileSync(lockPath(dir), `${other.pid}\n1\n\n`);
  const lock = acquireLock(dir);
  lock.release();

  const holder = spawn(process.execPath, ['--import', 'tsx', holderScript, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => holder.kill('SIGKILL'));
  await new Promise<void>((resolve) => holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('LOCKED') && resolve()));
  t.throws(() => acquireLock(dir), { name: 'LockedError' }, 'a live holder with its start time holds');
});

const unshareWorks = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;

t.test(
  'restart after SIGKILL in a new pid namespace (pid 1 both times)',
  { skip: unshareWorks ? false : 'unshare --pid --fork --mount-proc is not permitted here' },
  async (t) => {
    const dir = tempDir(t, 'lock');
    const run = () => {
      const child = spawn(
        'unshare',
        ['--pid', '--fork', '--mount-proc', '--kill-child=SIGKILL', process.execPath, '--import', 'tsx', holderScript, dir],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      t.teardown(() => child.kill('SIGKILL'));
      const said = new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(out.trim());
        });
      });
      return { child, said };
    };
    const first = run();
    t.equal(await first.said, 'LOCKED 1', 'the first server is pid 1 in its namespace');
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    t.match(readFileSync(lockPath(dir), 'utf8'), /^1\n/, 'SIGKILL left the lock behind');
    const second = run();
    t.equal(await second.said, 'LOCKED 1', 'the restart, pid 1 again, takes the stale lock');
  },
);
