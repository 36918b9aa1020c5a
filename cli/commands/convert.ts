/**
 * `vectorize convert IN [-o OUT] [options]`: traces one file with the engine directly (no server,
 * no quota), decisions.md §1. The options are the API's form fields, validated by the same
 * parseTraceOptions, so a value the API refuses is refused here with the same message.
 *
 * Exit codes: 0 done; 1 the input could not be traced (unreadable, unsupported, empty, too big);
 * 2 the command line is wrong (unknown option, bad value, no input). Errors are one line on stderr,
 * never a stack trace: `vectorize convert: <message> (<code>)`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { VectorizeError, isVectorizeError } from '../../engine/errors.js';
import { parseTraceOptions } from '../../engine/options.js';
import type { CommandIo } from '../main.js';

const OPTIONS = {
  output: { type: 'string', short: 'o' },
  'image-type': { type: 'string' },
  detail: { type: 'string' },
  gradients: { type: 'string' },
  smoothing: { type: 'string' },
  'trace-style': { type: 'string' },
  'close-seams': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const CONVERT_HELP = `Usage: vectorize convert IN [-o OUT] [options]

Traces one image (PNG, JPEG, WebP, AVIF or BMP) to SVG with the engine; writes OUT, or stdout.

Options:
  -o, --output OUT         write the SVG to OUT instead of stdout
  --image-type TYPE        auto | clipart | photo | scan | blueprint        (default auto)
  --detail D               low | medium | high, or a number 1-100           (default high)
  --smoothing S            off | light | strong | maximum, or a number 0-100 (default strong)
  --gradients G            auto | smooth | stepped                          (default smooth)
  --trace-style S          fill | centerline                                (default fill)
  --close-seams BOOL       true | false                                     (default true)
  -h, --help               show this help

Exit codes: 0 done, 1 the file could not be traced, 2 bad command line.
`;

/** Usage mistakes exit 2; everything about the file itself exits 1. */
const USAGE_CODES = new Set(['invalid_parameter']);

export async function run(args: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return fail(io, 'convert', new VectorizeError('invalid_parameter', firstLine(error)));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(CONVERT_HELP);
    return 0;
  }
  try {
    if (positionals.length !== 1) {
      throw new VectorizeError('invalid_parameter', positionals.length === 0 ? 'no input file given; see `vectorize convert --help`' : `expected one input file, got ${positionals.length}`);
    }
    const options = parseTraceOptions({
      image_type: values['image-type'],
      detail: values.detail,
      smoothing: values.smoothing,
      gradients: values.gradients,
      trace_style: values['trace-style'],
      close_seams: values['close-seams'],
    });
    const bytes = await readInput(positionals[0]);
    // imported here so `vectorize --help` and option errors never load sharp or the engine
    const { vectorize } = await import('../../engine/index.js');
    const result = await vectorize(bytes, options);
    if (values.output === undefined) {
      io.stdout.write(result.svg);
    } else {
      try {
        await writeFile(values.output, result.svg);
      } catch (error) {
        throw new VectorizeError('internal_error', `cannot write ${values.output}: ${systemReason(error)}`);
      }
    }
    return 0;
  } catch (error) {
    return fail(io, 'convert', error);
  }
}

/** Reads an input file; a missing or unreadable path is the caller's `missing_file`. */
export async function readInput(path: string): Promise<Uint8Array> {
  try {
    const buffer = await readFile(path);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
  } catch (error) {
    throw new VectorizeError('missing_file', `cannot read ${path}: ${systemReason(error)}`, { path });
  }
}

/** Prints one line, `vectorize <command>: <message> (<code>)`, and returns the exit code. */
export function fail(io: CommandIo, command: string, error: unknown): number {
  const known = isVectorizeError(error);
  const code = known ? error.code : 'internal_error';
  const message = known ? error.message : firstLine(error);
  io.stderr.write(`vectorize ${command}: ${message.replace(/\s*\n\s*/g, ' ')} (${code})\n`);
  return USAGE_CODES.has(code) ? 2 : 1;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

function systemReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return firstLine(error);
}
