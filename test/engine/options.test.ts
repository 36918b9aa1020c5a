import t from 'tap';
import { bucketDetail, bucketSmoothing, parseTraceOptions } from '../../engine/options.js';

t.test('detail sliders bucket at the boundaries docs/api.md gives', async (t) => {
  t.equal(bucketDetail('1'), 'low');
  t.equal(bucketDetail('33'), 'low');
  t.equal(bucketDetail('34'), 'medium');
  t.equal(bucketDetail(66), 'medium');
  t.equal(bucketDetail('67'), 'high');
  t.equal(bucketDetail('100'), 'high');
  t.equal(bucketDetail(undefined), 'high');
  t.equal(bucketDetail('medium'), 'medium');
});

t.test('smoothing sliders bucket at the boundaries docs/api.md gives', async (t) => {
  t.equal(bucketSmoothing('0'), 'off');
  t.equal(bucketSmoothing('24'), 'off');
  t.equal(bucketSmoothing('25'), 'light');
  t.equal(bucketSmoothing('49'), 'light');
  t.equal(bucketSmoothing('50'), 'strong');
  t.equal(bucketSmoothing('74'), 'strong');
  t.equal(bucketSmoothing('75'), 'maximum');
  t.equal(bucketSmoothing('100'), 'maximum');
  t.equal(bucketSmoothing(undefined), 'strong');
});

t.test('out-of-range and unknown values answer invalid_parameter naming the field', async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ detail: '0' }, 'detail'],
    [{ detail: '101' }, 'detail'],
    [{ detail: 'extreme' }, 'detail'],
    [{ detail: '50.5' }, 'detail'],
    [{ smoothing: '101' }, 'smoothing'],
    [{ smoothing: '-1' }, 'smoothing'],
    [{ trace_style: 'outline' }, 'trace_style'],
    [{ image_type: 'logo' }, 'image_type'],
    [{ gradients: 'linear' }, 'gradients'],
    [{ close_seams: 'yes' }, 'close_seams'],
  ];
  for (const [raw, field] of cases) {
    t.throws(
      () => parseTraceOptions(raw),
      { name: 'VectorizeError', code: 'invalid_parameter', details: { field } },
      `${JSON.stringify(raw)} names ${field}`,
    );
  }
});

t.test('defaults follow the contract', async (t) => {
  t.same(parseTraceOptions({}), {
    imageType: 'auto',
    detail: 'high',
    smoothing: 'strong',
    gradients: 'smooth',
    traceStyle: 'fill',
    closeSeams: true,
  });
  t.equal(parseTraceOptions({ close_seams: 'false' }).closeSeams, false);
});

t.test('a named level that does not exist is refused with the numbers the slider also takes', async (t) => {
  t.throws(() => parseTraceOptions({ detail: 'ultra' }), {
    code: 'invalid_parameter',
    message: 'detail must be one of low, medium, high or a number 1–100; got "ultra"',
  });
  t.throws(() => parseTraceOptions({ smoothing: 'silky' }), {
    code: 'invalid_parameter',
    message: 'smoothing must be one of off, light, strong, maximum or a number 0–100; got "silky"',
  });
});
