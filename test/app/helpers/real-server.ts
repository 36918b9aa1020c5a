/**
 * The real server for the page tests: started in-process on port 0 with a temp data dir and the
 * real engine, plus a Pro account and key made through its services; and a drop the way the OS
 * does it.
 */
import type { Test } from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';

/** A logo-like raster with curves and corners, so smoothing visibly changes the trace. */
export async function logoPng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160" viewBox="0 0 240 160">
    <rect width="240" height="160" fill="#ffffff"/>
    <circle cx="70" cy="80" r="50" fill="#e11d48"/>
    <path d="M130 30 L220 30 L175 130 Z" fill="#2563eb"/>
    <rect x="40" y="120" width="160" height="20" rx="10" fill="#111827"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function startRealServer(t: Test) {
  const dataDir = await mkdtemp(join(tmpdir(), 'vectorize-e2e-'));
  const { loadConfig } = await import('../../../server/config.js');
  const { startServer } = await import('../../../server/runtime.js');
  const { Writable } = await import('node:stream');
  const quiet = new Writable({ write: (_c, _e, done) => done() });
  const running = await startServer(
    loadConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      VECTORIZE_DATA_DIR: dataDir,
      VECTORIZE_WORKERS: '1',
      VECTORIZE_DEVICE: 'cpu',
      VECTORIZE_LOG_LEVEL: 'error',
    }),
    quiet,
  );
  t.teardown(async () => {
    await running.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  // Pro, so the manual settings (smoothing) take effect (docs/api.md, "Submitting": on Trial they fall back to defaults).
  const { services } = running.app;
  const account = services.accounts.create('E2E studio', 'pro');
  const { secret } = services.keys.create(account, { name: 'e2e' });
  return { url: running.url, key: secret, account, services, adminToken: running.app.context.adminToken };
}

/** Drops files on the window the way the OS does: a DataTransfer on a drop event. */
export async function dropFiles(page: Page, files: Array<{ name: string; type: string; bytes: Buffer }>): Promise<void> {
  await page.evaluate(
    (payload) => {
      const transfer = new DataTransfer();
      for (const file of payload) {
        const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
      }
      const target = document.querySelector('#stage')!;
      target.dispatchEvent(new DragEvent('dragenter', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    files.map((file) => ({ name: file.name, type: file.type, base64: file.bytes.toString('base64') })),
  );
}

/** Opens the page with the key already in this tab's storage, as if typed once before. */
export async function openSignedIn(page: Page, server: { url: string; key: string }): Promise<void> {
  await page.goto(server.url);
  await page.evaluate((key) => sessionStorage.setItem('vectorize.apiKey', key), server.key);
  await page.reload();
}
