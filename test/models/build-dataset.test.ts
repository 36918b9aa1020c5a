import t from 'tap';
import { concatDatasets, mergeDatasets, sourceCacheDir, type DatasetRow } from '../../models/build-dataset.js';

/** A dataset of 1×1 thumbnails whose one RGB pixel names its row. */
function dataset(entries: Array<[string, number]>) {
  const rows: DatasetRow[] = entries.map(([source, value], i) => ({
    split: 'train',
    class: 'clipart',
    source,
    package: 'p',
    file: `${source}-${value}`,
    variant: 0,
    width: 1,
    height: 1,
    offset: i * 3,
    texture: [],
  }));
  return { rows, thumbnails: Buffer.from(entries.flatMap(([, value]) => [value, value, value])) };
}

t.test('mergeDatasets replaces the rebuilt sources and keeps the declaration order of sources', async (t) => {
  // Declared order: openclipart, tango, …, gradient-art, …, mpfr-camera.
  const cached = dataset([
    ['openclipart', 1],
    ['tango', 2],
    ['tango', 3],
    ['mpfr-camera', 4],
  ]);
  const fresh = dataset([
    ['tango', 20],
    ['gradient-art', 30],
  ]);
  // The declared order, as sources() lists it once the packages are downloaded (a fresh clone has none).
  const order = ['openclipart', 'tango', 'gradient-art', 'mpfr-camera'];
  const merged = mergeDatasets(cached, fresh, new Set(['tango', 'gradient-art']), order);
  t.same(
    merged.rows.map((r) => r.file),
    ['openclipart-1', 'tango-20', 'gradient-art-30', 'mpfr-camera-4'],
  );
  t.same(
    merged.rows.map((r) => r.offset),
    [0, 3, 6, 9],
    'offsets point into the merged thumbnails',
  );
  t.same(
    merged.rows.map((r) => merged.thumbnails[r.offset]),
    [1, 20, 30, 4],
    'each row keeps its own pixels',
  );
});

t.test("concatDatasets joins sources and moves each part's offsets past the parts before it", async (t) => {
  const joined = concatDatasets([
    dataset([
      ['openclipart', 1],
      ['openclipart', 2],
    ]),
    dataset([['tango', 3]]),
  ]);
  t.same(
    joined.rows.map((r) => r.offset),
    [0, 3, 6],
  );
  t.same(
    joined.rows.map((r) => joined.thumbnails[r.offset]),
    [1, 2, 3],
  );
});

t.test("the source cache is named by the build's code, the same from call to call", async (t) => {
  t.equal(sourceCacheDir(), sourceCacheDir());
  t.match(sourceCacheDir(), /models\/\.cache\/sources\/[0-9a-f]{16}$/);
});
