/**
 * `vectorize accounts create NAME --plan PLAN | list | set-plan ID PLAN`. Safe while a server runs
 * on the same data dir: it then goes through the server's admin API (server/admin-access.ts).
 */
import type { CommandIo } from '../main.js';

const HELP = `Usage:
  vectorize accounts create NAME [--plan trial|lite|pro|studio|agency|enterprise]
      creates an account; prints its id (acct_…) as the last line
  vectorize accounts list
  vectorize accounts set-plan ID PLAN
Data dir: VECTORIZE_DATA_DIR (default ./data).
`;

function flag(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index >= 0) return args[index + 1];
  const inline = args.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

function positional(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith('--')) {
      if (!args[i].includes('=')) i++;
      continue;
    }
    out.push(args[i]);
  }
  return out;
}

export async function run(args: string[], io: CommandIo): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === '--help' || sub === '-h') {
    io.stdout.write(HELP);
    return sub ? 0 : 2;
  }
  const { openAdminAccess } = await import('../../server/admin-access.js');
  let access;
  try {
    access = await openAdminAccess(io.env);
  } catch (error) {
    io.stderr.write(`vectorize accounts: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    if (sub === 'create') {
      const [name] = positional(rest);
      if (!name) {
        io.stderr.write('vectorize accounts create: NAME is required\n');
        return 2;
      }
      const account = await access.createAccount(name, flag(rest, '--plan') ?? 'trial');
      io.stdout.write(`created account "${account.name}" on plan ${account.plan}\n${account.id}\n`);
      return 0;
    }
    if (sub === 'list') {
      for (const a of await access.listAccounts()) {
        const monthly = a.allowances.monthly;
        const left = monthly ? `monthly ${monthly.left ?? '∞'}/${monthly.total ?? '∞'} (resets ${monthly.reset_at.slice(0, 10)})` : '';
        io.stdout.write(`${a.id}\t${a.plan}\t${a.name}\ttrial ${a.allowances.trial.left}/5\t${left}\n`);
      }
      return 0;
    }
    if (sub === 'set-plan') {
      const [id, plan] = positional(rest);
      if (!id || !plan) {
        io.stderr.write('vectorize accounts set-plan: ID and PLAN are required\n');
        return 2;
      }
      const account = await access.setPlan(id, plan);
      io.stdout.write(`${account.id} is now on plan ${account.plan}\n`);
      return 0;
    }
    io.stderr.write(`vectorize accounts: unknown subcommand "${sub}"\n${HELP}`);
    return 2;
  } catch (error) {
    io.stderr.write(`vectorize accounts ${sub}: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await access.close();
  }
}
