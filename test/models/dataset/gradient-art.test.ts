import { Resvg } from '@resvg/resvg-js';
import t from 'tap';
import { gradientArtSvg } from '../../../models/dataset/gradient-art.js';
import { seededRandom } from '../../../models/lib/mlp.js';

t.test('a seed gives one wallpaper, another seed another', async (t) => {
  t.equal(gradientArtSvg(seededRandom(5)).svg, gradientArtSvg(seededRandom(5)).svg);
  t.not(gradientArtSvg(seededRandom(5)).svg, gradientArtSvg(seededRandom(6)).svg);
});

t.test('the wallpapers are soft gradients: many colours, few hard steps between neighbours; resvg draws them all', async (t) => {
  // resvg aborts the process on some drawings (it did on blurred groups): every seed here must draw.
  for (let seed = 1; seed <= 12; seed++) {
    const { svg, width, height } = gradientArtSvg(seededRandom(seed));
    const image = new Resvg(svg, { fitTo: { mode: 'width', value: 320 } }).render();
    t.equal(image.width, 320, `seed ${seed}: drawn at the asked width`);
    t.equal(image.height, Math.round((320 * height) / width), `seed ${seed}: keeps its aspect`);
    const pixels = image.pixels;
    const colours = new Set<number>();
    let steps = 0,
      pairs = 0;
    for (let i = 0; i + 4 < pixels.length; i += 4) {
      colours.add(((pixels[i] >> 3) << 10) | ((pixels[i + 1] >> 3) << 5) | (pixels[i + 2] >> 3));
      if ((i / 4) % image.width === image.width - 1) continue;
      pairs++;
      if (Math.abs(pixels[i] - pixels[i + 4]) + Math.abs(pixels[i + 1] - pixels[i + 5]) + Math.abs(pixels[i + 2] - pixels[i + 6]) > 60)
        steps++;
    }
    t.ok(colours.size > 20, `seed ${seed}: ${colours.size} colours (15-bit), a gradient rather than flat fills`);
    t.ok(steps / pairs < 0.05, `seed ${seed}: ${((100 * steps) / pairs).toFixed(2)} % hard steps`);
  }
});
