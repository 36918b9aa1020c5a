import t from 'tap';
import { engineSettingsFor } from '../../engine/settings.js';
import { DEFAULT_TRACE_OPTIONS, IMAGE_CLASSES, type TraceOptions } from '../../engine/types.js';

const withOptions = (o: Partial<TraceOptions>) => ({ ...DEFAULT_TRACE_OPTIONS, ...o });

t.test('detail: low merges more than medium, medium more than high', async (t) => {
  for (const mode of IMAGE_CLASSES) {
    const cost = (detail: TraceOptions['detail']) => engineSettingsFor(withOptions({ detail }), mode).segment.mergeCost;
    t.ok(cost('low') > cost('medium') && cost('medium') > cost('high'), mode);
  }
});

t.test('smoothing sets the fitter: more smoothing, fewer corners', async (t) => {
  const angle = (smoothing: TraceOptions['smoothing']) => engineSettingsFor(withOptions({ smoothing }), 'clipart').fit.cornerAngleDeg;
  t.ok(angle('off') > angle('light') && angle('light') > angle('strong') && angle('strong') > angle('maximum'));
  t.equal(engineSettingsFor(withOptions({ smoothing: 'light' }), 'clipart').fit.smoothing, 'light');
});

t.test('gradients: only smooth turns gradient fills and the plane model on', async (t) => {
  t.equal(engineSettingsFor(withOptions({ gradients: 'smooth' }), 'photo').gradients.enabled, true);
  t.equal(engineSettingsFor(withOptions({ gradients: 'smooth' }), 'photo').segment.gradientModel, true);
  for (const gradients of ['auto', 'stepped'] as const) {
    t.equal(engineSettingsFor(withOptions({ gradients }), 'photo').gradients.enabled, false);
    t.equal(engineSettingsFor(withOptions({ gradients }), 'photo').segment.gradientModel, false);
  }
});

t.test('close_seams: 0.75 px overlap when on (docs/api.md)', async (t) => {
  t.same(engineSettingsFor(withOptions({ closeSeams: true }), 'clipart').seams, { close: true, overlapPx: 0.75, hiddenShortcuts: true });
  t.equal(engineSettingsFor(withOptions({ closeSeams: true }), 'photo').seams.hiddenShortcuts, false, 'hidden shortcuts: clip art only');
  t.equal(engineSettingsFor(withOptions({ closeSeams: false }), 'clipart').seams.close, false);
});

t.test('every image type has its own preset', async (t) => {
  const presets = IMAGE_CLASSES.map((mode) => JSON.stringify({ ...engineSettingsFor(DEFAULT_TRACE_OPTIONS, mode), mode: undefined }));
  t.ok(new Set(presets).size >= 3);
  t.equal(engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'photo').prepare.denoisePasses > 0, true, 'photos are denoised');
  t.equal(engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'clipart').prepare.denoisePasses, 0, 'clip art keeps its pixels');
});

t.test('clip art from a lossy file is denoised like a photo; from a lossless one it keeps its pixels', async (t) => {
  t.equal(engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'clipart', { lossy: true }).prepare.denoisePasses, 1);
  t.equal(engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'clipart', { lossy: false }).prepare.denoisePasses, 0);
  for (const mode of ['photo', 'scan', 'blueprint'] as const) {
    t.same(
      engineSettingsFor(DEFAULT_TRACE_OPTIONS, mode, { lossy: true }),
      engineSettingsFor(DEFAULT_TRACE_OPTIONS, mode, { lossy: false }),
      `${mode}: the same either way`,
    );
  }
});
