/**
 * Synthetic flat vector wallpapers for training: wide soft gradients, translucent waves, glows,
 * low-poly facets, thin swirls and sometimes a small logo, as desktop themes draw them. These
 * are clip art to the tracer (a few fills with gradients) although nothing in them is a hard
 * edge on white, which is why the model read such wallpapers as photos.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SvgJob } from './load.js';
import { WORK } from './packages.js';

type Random = () => number;

/** #rrggbb of a hue (degrees), saturation and lightness (0..1): resvg reads no hsl(). */
function hsl(hue: number, saturation: number, lightness: number): string {
  const h = (((hue % 360) + 360) % 360) / 60;
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation,
    x = chroma * (1 - Math.abs((h % 2) - 1));
  const [r, g, b] = [
    [chroma, x, 0],
    [x, chroma, 0],
    [0, chroma, x],
    [0, x, chroma],
    [x, 0, chroma],
    [chroma, 0, x],
  ][Math.floor(h) % 6];
  const m = lightness - chroma / 2;
  return `#${[r, g, b]
    .map((v) =>
      Math.round((v + m) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** A theme: one base hue, a neighbouring accent, dark or light. */
function palette(random: Random) {
  const hue = random() * 360,
    accent = hue + (random() - 0.5) * 120,
    dark = random() < 0.55;
  const saturation = 0.25 + random() * 0.6;
  const shade = (offset: number, spread = 0.15) =>
    dark
      ? hsl(random() < 0.7 ? hue : accent, saturation, Math.min(0.6, 0.08 + offset + random() * spread))
      : hsl(random() < 0.7 ? hue : accent, saturation * 0.8, Math.max(0.45, 0.92 - offset - random() * spread));
  return { dark, shade };
}

export function gradientArtSvg(random: Random): { svg: string; width: number; height: number } {
  const width = 1600,
    height = Math.round(width / (1.25 + random() * 1.1));
  const { dark, shade } = palette(random);
  const defs: string[] = [];
  const body: string[] = [];
  let ids = 0;
  const linear = (a: string, b: string, angle: number, opacityEnd = 1) => {
    const id = `g${ids++}`,
      dx = Math.cos(angle) / 2,
      dy = Math.sin(angle) / 2;
    defs.push(
      `<linearGradient id="${id}" x1="${0.5 - dx}" y1="${0.5 - dy}" x2="${0.5 + dx}" y2="${0.5 + dy}">` +
        `<stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}" stop-opacity="${opacityEnd}"/></linearGradient>`,
    );
    return `url(#${id})`;
  };
  const radial = (colour: string, opacity: number) => {
    const id = `g${ids++}`;
    defs.push(
      `<radialGradient id="${id}"><stop offset="0" stop-color="${colour}" stop-opacity="${opacity}"/>` +
        `<stop offset="1" stop-color="${colour}" stop-opacity="0"/></radialGradient>`,
    );
    return `url(#${id})`;
  };
  body.push(`<rect width="${width}" height="${height}" fill="${linear(shade(0), shade(0.2), random() * Math.PI * 2)}"/>`);
  for (let k = 0, n = 1 + Math.floor(random() * 3); k < n; k++) {
    const r = (0.2 + random() * 0.6) * width;
    body.push(
      `<circle cx="${random() * width}" cy="${random() * height}" r="${r}" fill="${radial(shade(0.3, 0.3), 0.3 + random() * 0.6)}"/>`,
    );
  }
  const kinds = (['waves', 'facets', 'discs', 'swirls'] as const).filter((_, k) => random() < [0.7, 0.3, 0.45, 0.4][k]);
  for (const kind of kinds.length ? kinds : ['waves' as const]) {
    if (kind === 'waves') {
      for (let k = 0, n = 1 + Math.floor(random() * 4); k < n; k++) {
        const base = height * (0.3 + random() * 0.6),
          amp = height * (0.05 + random() * 0.25);
        const c = () => base + (random() - 0.5) * 2 * amp;
        const d = `M0 ${c()} C${width * 0.3} ${c()} ${width * 0.6} ${c()} ${width} ${c()} L${width} ${height} L0 ${height} Z`;
        body.push(
          `<path d="${d}" fill="${linear(shade(0.1, 0.3), shade(0.3, 0.3), Math.PI / 2 + (random() - 0.5), random())}"` +
            ` opacity="${(0.3 + random() * 0.6).toFixed(2)}"/>`,
        );
      }
    } else if (kind === 'facets') {
      const cols = 4 + Math.floor(random() * 10),
        rows = Math.max(2, Math.round((cols * height) / width));
      const jitter = random() * 0.4;
      const point = (i: number, j: number) => [
        ((i + (i > 0 && i < cols ? (random() - 0.5) * jitter : 0)) * width) / cols,
        ((j + (j > 0 && j < rows ? (random() - 0.5) * jitter : 0)) * height) / rows,
      ];
      const grid = Array.from({ length: cols + 1 }, (_, i) => Array.from({ length: rows + 1 }, (_, j) => point(i, j)));
      const opacity = 0.15 + random() * 0.7;
      for (let i = 0; i < cols; i++) {
        for (let j = 0; j < rows; j++) {
          const [a, b, c, e] = [grid[i][j], grid[i + 1][j], grid[i + 1][j + 1], grid[i][j + 1]];
          for (const tri of [
            [a, b, c],
            [a, c, e],
          ]) {
            body.push(
              `<path d="M${tri.map((p) => `${p[0].toFixed(1)} ${p[1].toFixed(1)}`).join(' L')} Z" fill="${shade(0.1, 0.35)}"` +
                ` opacity="${opacity.toFixed(2)}"/>`,
            );
          }
        }
      }
    } else if (kind === 'discs') {
      for (let k = 0, n = 2 + Math.floor(random() * 8); k < n; k++) {
        body.push(
          `<circle cx="${random() * width}" cy="${random() * height}" r="${(0.03 + random() * 0.3) * width}"` +
            ` fill="${linear(shade(0.2, 0.3), shade(0.1, 0.3), random() * 6, random())}" opacity="${(0.15 + random() * 0.5).toFixed(2)}"/>`,
        );
      }
    } else {
      for (let k = 0, n = 1 + Math.floor(random() * 6); k < n; k++) {
        const p = () => `${(random() * width).toFixed(0)} ${(random() * height).toFixed(0)}`;
        body.push(
          `<path d="M${p()} C${p()} ${p()} ${p()} S${p()} ${p()}" fill="none"` +
            ` stroke="${dark ? shade(0.5, 0.3) : shade(0.3, 0.3)}" stroke-width="${(1 + random() * 12).toFixed(1)}"` +
            ` opacity="${(0.2 + random() * 0.6).toFixed(2)}"/>`,
        );
      }
    }
  }
  if (random() < 0.3) {
    for (let k = 0, n = 20 + Math.floor(random() * 150); k < n; k++)
      body.push(
        `<circle cx="${random() * width}" cy="${random() * height}" r="${(0.5 + random() * 2).toFixed(1)}" fill="#fff"` +
          ` opacity="${random().toFixed(2)}"/>`,
      );
  }
  if (random() < 0.5) {
    // A small logo: a flat mark, sometimes with a word beside it.
    const x = width * (0.15 + random() * 0.7),
      y = height * (0.15 + random() * 0.7),
      r = width * (0.02 + random() * 0.05);
    const ink = random() < 0.5 ? (dark ? '#f4f4f4' : '#303030') : shade(0.4, 0.2);
    body.push(
      random() < 0.5
        ? `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${ink}" stroke-width="${r * 0.25}"/>`
        : `<path d="M${x - r} ${y + r} L${x} ${y - r} L${x + r} ${y + r} Z" fill="${ink}"/>`,
    );
    if (random() < 0.5)
      body.push(
        `<text x="${x + r * 1.6}" y="${y + r * 0.5}" font-family="sans-serif" font-size="${r * 1.4}"` +
          ` fill="${ink}">${['aurora', 'desk', 'linux', 'flow', 'nova'][Math.floor(random() * 5)]}</text>`,
      );
  }
  // No SVG filters: resvg panics on some blurred groups (geom.rs unwrap), and the radial
  // gradients already give the soft glows.
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"` +
    ` viewBox="0 0 ${width} ${height}"><defs>${defs.join('')}</defs>${body.join('')}</svg>`;
  return { svg, width, height };
}

/**
 * An SVG source's job for one synthetic wallpaper, drawn from the file's load stream. The file is
 * named by its content, so a changed generator never reuses an old rendering from the cache.
 */
export function gradientArtFile(_name: string, random: Random): SvgJob {
  const dir = join(WORK, 'gradient-art');
  mkdirSync(dir, { recursive: true });
  const { svg } = gradientArtSvg(random);
  const input = join(dir, `${createHash('sha256').update(svg).digest('hex').slice(0, 24)}.svg`);
  writeFileSync(input, svg);
  return { input, size: Math.round(500 + random() * 1100) };
}
