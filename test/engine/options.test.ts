import t from 'tap';
import { DEFAULT_OUTPUT_CONTROLS, DEFAULT_TRACE_OPTIONS } from '../../engine/types.js';
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
  t.same(parseTraceOptions({}), DEFAULT_TRACE_OPTIONS, 'no field: the defaults');
  // the contract's defaults (docs/api.md, "Submitting"), one line so they read as its table does
  const contract = { imageType: 'auto', detail: 'high', smoothing: 'strong', gradients: 'smooth', traceStyle: 'fill' };
  t.match(DEFAULT_TRACE_OPTIONS, { ...contract, closeSeams: true, output: DEFAULT_OUTPUT_CONTROLS });
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

t.test('output controls: each bad value answers invalid_parameter naming the field and what it allows', async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ max_colors: '1' }, 'max_colors'],
    [{ max_colors: '257' }, 'max_colors'],
    [{ max_colors: '4.5' }, 'max_colors'],
    [{ palette: '#ff0000,red' }, 'palette'],
    [{ palette: '#f00' }, 'palette'],
    [{ palette: Array.from({ length: 65 }, (_, i) => `#0000${i.toString(16).padStart(2, '0')}`).join(',') }, 'palette'],
    [{ background: 'white' }, 'background'],
    [{ background: '#fff' }, 'background'],
    [{ group_by: 'layer' }, 'group_by'],
    [{ width: '0' }, 'width'],
    [{ width: '-5' }, 'width'],
    [{ width: '1e3' }, 'width'],
    [{ height: '100001' }, 'height'],
    [{ unit: 'ft' }, 'unit'],
    [{ dpi: '0' }, 'dpi'],
    [{ dpi: '10001' }, 'dpi'],
    [{ stroke_order: 'fastest' }, 'stroke_order'],
  ];
  for (const [raw, field] of cases) {
    t.throws(
      () => parseTraceOptions(raw),
      { name: 'VectorizeError', code: 'invalid_parameter', details: { field, allowed: String } },
      `${JSON.stringify(raw).slice(0, 60)} names ${field}`,
    );
  }
});

t.test('output controls: valid values are parsed, colours lower-cased', async (t) => {
  const { output } = parseTraceOptions({
    max_colors: '4',
    palette: '#FF0000, #00ff00,#0000Ff',
    background: '#FFFFFF',
    group_by: 'color',
    width: '100',
    height: '12.5',
    unit: 'mm',
    dpi: '300',
    stroke_order: 'plotter',
  });
  t.same(output, {
    maxColors: 4,
    palette: ['#ff0000', '#00ff00', '#0000ff'],
    background: '#ffffff',
    groupBy: 'color',
    width: 100,
    height: 12.5,
    unit: 'mm',
    dpi: 300,
    strokeOrder: 'plotter',
  });
  t.equal(parseTraceOptions({ background: 'remove' }).output.background, 'remove');
});
