/**
 * Command-line parsing shared by the subcommands: node:util parseArgs in strict mode, with its
 * errors turned into one `invalid_parameter` line that names the option and, for a typo, the
 * option that was probably meant (`--detial` → `--detail`), instead of Node's advice about
 * positional arguments.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { VectorizeError } from '../engine/errors.js';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

export function parseCommandLine<const Options extends OptionsConfig>(command: string, args: string[], options: Options) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new VectorizeError('invalid_parameter', explainParseError(command, error, options));
  }
}

function explainParseError(command: string, error: unknown, options: OptionsConfig): string {
  const { code, message } = error as { code?: string; message?: string };
  const text = String(message ?? error);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const given = /'([^']+)'/.exec(text)?.[1] ?? text;
    const near = closestOption(given, options);
    return `unknown option ${given}${near ? `; did you mean ${near}?` : ''} (see \`vectorize ${command} --help\`)`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = /--([a-z-]+)/.exec(text)?.[1];
    if (name && options[name]?.type === 'string') return `--${name} needs a value (see \`vectorize ${command} --help\`)`;
    if (name) return `--${name} takes no value`;
  }
  return text.split('\n')[0];
}

/** The declared option nearest to a mistyped one, when it is near enough to be a typo. */
export function closestOption(given: string, options: OptionsConfig): string | null {
  const bare = given.replace(/^-+/, '').split('=')[0];
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of Object.keys(options)) {
    const distance = editDistance(bare, name);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = name;
    }
  }
  // Two edits (a swap counts as one) catch the usual slips without suggesting unrelated options.
  return best !== null && bestDistance <= Math.min(2, Math.floor(best.length / 2)) ? `--${best}` : null;
}

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}
