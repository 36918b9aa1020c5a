/**
 * `vectorize keys create --account ID [--name N] [--scope api|app] | list --account ID | revoke ID`.
 * The full secret is printed once, as the last line of `create`; only its hash is stored.
 */
import type { CommandIo } from '../main.js';

const HELP = `Usage:
  vectorize keys create --account ID [--name NAME] [--scope api|app]
      prints the full secret (service_sk_live_…) as the last line, once
  vectorize keys list [--account ID]
  vectorize keys revoke KEY_ID
Data dir: VECTORIZE_DATA_DIR (default ./data).
`;

function flag(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index >= 0) return args[index + 1];
  return args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
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
    io.stderr.write(`vectorize keys: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    if (sub === 'create') {
      const account = flag(rest, '--account');
      if (!account) {
        io.stderr.write('vectorize keys create: --account ID is required\n');
        return 2;
      }
      const scope = flag(rest, '--scope') ?? 'api';
      if (scope !== 'api' && scope !== 'app') {
        io.stderr.write('vectorize keys create: --scope is api or app\n');
        return 2;
      }
      const key = await access.createKey(account, flag(rest, '--name'), scope);
      io.stdout.write(`created key ${key.id} (${key.scope}) for ${key.account_id}; the secret below is shown only now:\n${key.secret}\n`);
      return 0;
    }
    if (sub === 'list') {
      for (const k of await access.listKeys(flag(rest, '--account'))) {
        io.stdout.write(`${k.id}\t${k.account_id}\t${k.scope}\t${k.masked}\t${k.name}\tlast used ${k.last_used_at ?? 'never'}\n`);
      }
      return 0;
    }
    if (sub === 'revoke') {
      const id = rest.find((a) => !a.startsWith('--'));
      if (!id) {
        io.stderr.write('vectorize keys revoke: KEY_ID is required\n');
        return 2;
      }
      await access.revokeKey(id);
      io.stdout.write(`revoked ${id}\n`);
      return 0;
    }
    io.stderr.write(`vectorize keys: unknown subcommand "${sub}"\n${HELP}`);
    return 2;
  } catch (error) {
    io.stderr.write(`vectorize keys ${sub}: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await access.close();
  }
}
