/**
 * `vectorize classify IN`: prints the engine's image type (clipart, photo, scan or blueprint) as
 * the last line of stdout, docs/cli.md. Which classifier ran (provider and time) goes to
 * stderr, so `vectorize classify x.png | tail -1` and scripts reading stdout see only the class.
 */
import { VectorizeError } from '../../engine/errors.js';
import { parseCommandLine } from '../args.js';
import type { CommandIo } from '../main.js';
import { fail, readInput } from './convert.js';

const CLASSIFY_HELP = `Usage: vectorize classify IN

Prints the engine's image type for the file (clipart, photo, scan or blueprint) as the last line of
stdout; the classifier's provider goes to stderr.

Exit codes: 0 done, 1 the file could not be read or decoded, 2 bad command line.
`;

export async function run(args: string[], io: CommandIo): Promise<number> {
  try {
    const { values, positionals } = parseCommandLine('classify', args, { help: { type: 'boolean', short: 'h' } });
    if (values.help) {
      io.stdout.write(CLASSIFY_HELP);
      return 0;
    }
    if (positionals.length !== 1) {
      throw new VectorizeError(
        'invalid_parameter',
        positionals.length === 0
          ? 'no input file given; see `vectorize classify --help`'
          : `expected one input file, got ${positionals.length}`,
      );
    }
    const bytes = await readInput(positionals[0]);
    const { decodeImage, classifyImage } = await import('../../engine/index.js');
    // this command's own stderr line below says the provider; the engine's longer one is not needed
    (await import('../../engine/classify/index.js')).configureClassifier({ log: () => {} });
    const image = await decodeImage(bytes);
    const result = await classifyImage(image);
    io.stderr.write(`classifier: ${result.provider}, ${Math.round(result.ms)} ms\n`);
    io.stdout.write(`${result.class}\n`);
    return 0;
  } catch (error) {
    return fail(io, 'classify', error);
  }
}
