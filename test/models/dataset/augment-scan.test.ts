import t from 'tap';
import type { RgbaImage } from '../../../engine/types.js';
import { bookScanAugment, cameraPageAugment } from '../../../models/dataset/augment-scan.js';
import { seededRandom } from '../../../models/lib/mlp.js';
import { syntheticPage } from '../../../models/lib/synthetic.js';

const luma = (image: RgbaImage, i: number) => 0.299 * image.data[i * 4] + 0.587 * image.data[i * 4 + 1] + 0.114 * image.data[i * 4 + 2];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

t.test('a book scan is the same for the same stream', async (t) => {
  const page = syntheticPage(300, 400, 1, false);
  const a = await bookScanAugment(page, seededRandom(3));
  const b = await bookScanAugment(page, seededRandom(3));
  t.same([a.width, a.height], [b.width, b.height]);
  t.ok(Buffer.from(a.data).equals(Buffer.from(b.data)));
});

t.test('book scans have dark margins or corners that the clean page has not', async (t) => {
  const page = syntheticPage(300, 400, 2, false);
  let darkEdged = 0;
  for (let seed = 0; seed < 6; seed++) {
    const scan = await bookScanAugment(page, seededRandom(seed));
    const edge: number[] = [];
    for (let x = 0; x < scan.width; x++) edge.push(luma(scan, x), luma(scan, (scan.height - 1) * scan.width + x));
    for (let y = 0; y < scan.height; y++) edge.push(luma(scan, y * scan.width), luma(scan, y * scan.width + scan.width - 1));
    if (edge.filter((v) => v < 110).length > edge.length * 0.05) darkEdged++;
  }
  t.ok(darkEdged >= 5, `${darkEdged} of 6 scans dark along their edges`);
});

t.test('camera pages are grey: the paper is well under white', async (t) => {
  const page = syntheticPage(300, 400, 3, false);
  for (let seed = 0; seed < 4; seed++) {
    const photo = await cameraPageAugment(page, seededRandom(seed));
    const paper = median(Array.from({ length: photo.width * photo.height }, (_, i) => luma(photo, i)));
    t.ok(paper < 235, `seed ${seed}: paper at ${paper.toFixed(0)}`);
  }
});
