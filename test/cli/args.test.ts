import t from 'tap';
import { closestOption, parseCommandLine } from '../../cli/args.js';

const OPTIONS = {
  detail: { type: 'string' },
  'image-type': { type: 'string' },
  force: { type: 'boolean' },
  output: { type: 'string', short: 'o' },
} as const;

t.test('a typo is matched to the declared option it is near', async (t) => {
  t.equal(closestOption('--detial', OPTIONS), '--detail');
  t.equal(closestOption('--image-typ=clipart', OPTIONS), '--image-type');
  t.equal(closestOption('--forse', OPTIONS), '--force');
  t.equal(closestOption('--colour', OPTIONS), null, 'nothing near: no guess');
});

t.test('parse errors become one invalid_parameter message naming the option', async (t) => {
  t.throws(() => parseCommandLine('convert', ['--detial', 'x'], OPTIONS), {
    code: 'invalid_parameter',
    message: /^unknown option --detial; did you mean --detail\?/,
  });
  t.throws(() => parseCommandLine('convert', ['--output'], OPTIONS), { code: 'invalid_parameter', message: /^--output needs a value/ });
  t.throws(() => parseCommandLine('convert', ['--force=yes'], OPTIONS), { code: 'invalid_parameter', message: /^--force takes no value/ });
  t.same(parseCommandLine('convert', ['a.png', '-o', 'b.svg'], OPTIONS).positionals, ['a.png']);
});
