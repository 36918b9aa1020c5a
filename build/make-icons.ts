/**
 * Renders build/icon.svg into the PNGs packaging needs: build/icon.png (1024², electron-builder
 * derives the macOS .icns and Windows .ico from it) and build/icons/<n>x<n>.png (Linux hicolor
 * sizes for the .deb and the desktop entry). Run after changing the icon:
 *   node --import tsx build/make-icons.ts
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = dirname(fileURLToPath(import.meta.url));
const svg = await readFile(join(here, 'icon.svg'));
await mkdir(join(here, 'icons'), { recursive: true });
await sharp(svg, { density: 192 }).resize(1024, 1024).png().toFile(join(here, 'icon.png'));
for (const size of [16, 32, 48, 64, 128, 256, 512]) {
  await sharp(svg, { density: Math.max(72, size / 2) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(join(here, 'icons', `${size}x${size}.png`));
}
