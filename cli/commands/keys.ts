import type { CommandIo } from '../main.js';

// Placeholder until the owning issue lands its implementation.
export async function run(_args: string[], io: CommandIo): Promise<number> {
  io.stderr.write('vectorize keys: not implemented yet\n');
  return 1;
}
