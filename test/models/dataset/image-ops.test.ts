import t from 'tap';
import type { RgbaImage } from '../../../engine/types.js';
import { drawSpecks, lightBy, warpOnto } from '../../../models/dataset/image-ops.js';

/** A w×h image whose red channel counts columns and green counts rows: every pixel says where it is. */
function coordinates(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x * 10, y * 10, 0, 255], (y * width + x) * 4);
  return { width, height, data };
}
const at = (image: RgbaImage, x: number, y: number) =>
  Array.from(image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4));

t.test("warpOnto with the image's own corners gives the image back", async (t) => {
  const image = coordinates(12, 9);
  const same = warpOnto(
    image,
    [
      [0, 0],
      [11, 0],
      [11, 8],
      [0, 8],
    ],
    12,
    9,
    () => [1, 2, 3],
  );
  t.same(Array.from(same.data), Array.from(image.data));
});

t.test('warpOnto places the corners where asked and fills the rest with the background', async (t) => {
  const image = coordinates(12, 9);
  // Shrunk into the middle of a 24×18 canvas and squeezed at the top: a page seen in perspective.
  const warped = warpOnto(
    image,
    [
      [8, 4],
      [15, 4],
      [18, 13],
      [5, 13],
    ],
    24,
    18,
    () => [7, 8, 9],
  );
  t.same(at(warped, 8, 4), [0, 0, 0, 255], 'top-left corner');
  t.same(at(warped, 15, 4), [110, 0, 0, 255], 'top-right corner');
  t.same(at(warped, 18, 13), [110, 80, 0, 255], 'bottom-right corner');
  t.same(at(warped, 5, 13), [0, 80, 0, 255], 'bottom-left corner');
  t.same(at(warped, 0, 0), [7, 8, 9, 255], 'outside the page');
  t.same(at(warped, 6, 5), [7, 8, 9, 255], 'beside the narrow top edge');
});

t.test('lightBy scales each pixel by the light at its place', async (t) => {
  const white = { width: 4, height: 1, data: new Uint8Array(16).fill(200) };
  const lit = lightBy(white, (u) => 1 - u);
  t.same(
    [0, 1, 2, 3].map((x) => at(lit, x, 0)[0]),
    [200, 150, 100, 50],
  );
  t.equal(at(lit, 3, 0)[3], 200, 'alpha untouched');
});

t.test('drawSpecks paints round dots of their level and nothing else', async (t) => {
  const white = { width: 9, height: 9, data: new Uint8Array(9 * 9 * 4).fill(255) };
  const specked = drawSpecks(white, [{ x: 4, y: 4, radius: 1.5, level: 30 }]);
  t.same(at(specked, 4, 4).slice(0, 3), [30, 30, 30]);
  t.same(at(specked, 5, 5).slice(0, 3), [30, 30, 30], 'within the radius diagonally');
  t.same(at(specked, 6, 6).slice(0, 3), [255, 255, 255], 'outside it');
  t.equal(Array.from(specked.data).filter((v) => v === 30).length / 3, 9, 'a disc of 9 pixels');
  t.same(at(white, 4, 4), [255, 255, 255, 255], 'the input is left alone');
});
