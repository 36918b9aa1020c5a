/**
 * Launches Debian's chromium through playwright-core for the front-end tests. CI installs the
 * packages (chromium, xvfb, xauth); on a machine without chromium the tests skip and say why.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { chromium, type BrowserContext } from 'playwright-core';

const CHROMIUM_PATH = process.env.VECTORIZE_CHROMIUM ?? '/usr/bin/chromium';

export function chromiumMissing(): string | false {
  return existsSync(CHROMIUM_PATH) ? false : `chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium xvfb xauth)`;
}

interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A persistent context on a fresh profile dir: nothing from another run leaks in. */
export async function launchChromium(options: { headless?: boolean; downloadsPath?: string } = {}): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'vectorize-chromium-'));
  const headless = options.headless ?? true;
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless,
    acceptDownloads: true,
    downloadsPath: options.downloadsPath,
    viewport: { width: 1280, height: 800 },
    args: [
      ...(headless ? ['--headless'] : []),
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** A browser for one test that saves downloads into a temp folder; both are gone when the test ends. */
export async function launchWithDownloads(t: Test): Promise<{ browser: Browser; downloads: string }> {
  const downloads = await mkdtemp(join(tmpdir(), 'vectorize-downloads-'));
  t.teardown(() => rm(downloads, { recursive: true, force: true }));
  const browser = await launchChromium({ downloadsPath: downloads });
  t.teardown(() => browser.close());
  return { browser, downloads };
}
