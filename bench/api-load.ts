/** What both API benches share: the generated images, percentiles, one timed submission. */
import sharp from 'sharp';

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
export const median = (values: number[]) => percentile(values, 50);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Shapes on a page, 64–160 px: small enough that the API, not the engine, dominates. */
export async function makeImages(count: number): Promise<Buffer[]> {
  const images: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const size = 64 + (i % 5) * 24;
    const hue = (i * 47) % 360;
    const shapes = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
      <circle cx="${size * 0.4}" cy="${size * 0.45}" r="${size * 0.28}" fill="hsl(${hue},70%,45%)"/>
      <rect x="${size * 0.5}" y="${size * 0.15}" width="${size * 0.35}" height="${size * 0.5}" fill="hsl(${(hue + 120) % 360},60%,35%)"/>
      <path d="M${size * 0.1} ${size * 0.9} L${size * 0.5} ${size * 0.6} L${size * 0.9} ${size * 0.9} Z" fill="#222"/></svg>`;
    images.push(
      await sharp({ create: { width: size, height: size, channels: 3, background: '#fafafa' } })
        .composite([{ input: Buffer.from(shapes) }])
        .png()
        .toBuffer(),
    );
  }
  return images;
}

/** POST /v1/vectorize as image_type=clipart; the accept latency is the whole request. */
export async function submit(url: string, secret: string, png: Buffer, name: string): Promise<{ status: number; ms: number; id?: string }> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), name);
  form.set('image_type', 'clipart');
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/vectorize`, { method: 'POST', body: form, headers: { authorization: `Bearer ${secret}` } });
  const ms = performance.now() - t0;
  const body = (await res.json()) as { id?: string };
  return { status: res.status, ms, id: body.id };
}
