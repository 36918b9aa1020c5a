/**
 * Saving results. The desktop app saves through its native dialogs (one file, a folder, or one by
 * one); a browser downloads the selected SVG, or every result as one ZIP, since a page asking to
 * start dozens of downloads is blocked or nags the person once per file.
 */
import type { DesktopBridge, SaveAllMode, SvgFile } from '../bridge.js';
import { svgNameFor } from './files.js';
import type { QueueItem } from './queue.js';
import { archiveNames, zipFiles } from './zip.js';

/** The browser may still be writing the download when the click returns; the URL outlives it a while. */
const REVOKE_AFTER_MS = 10_000;

interface SaveOptions {
  bridge: DesktopBridge | undefined;
  toast: (message: string) => void;
}

export class Saver {
  private readonly options: SaveOptions;

  constructor(options: SaveOptions) {
    this.options = options;
  }

  async saveOne(item: QueueItem | undefined): Promise<void> {
    if (!item?.svg) return;
    const file = { name: svgNameFor(item.name), svg: item.svg };
    const { bridge, toast } = this.options;
    if (bridge) {
      const result = await bridge.saveSvg(file);
      if (!result.canceled) toast(`Saved ${result.saved[0] ?? file.name}`);
    } else {
      download(new Blob([file.svg], { type: 'image/svg+xml' }), file.name);
    }
  }

  async saveAll(items: QueueItem[], mode: SaveAllMode = 'folder'): Promise<void> {
    const withResult = items.filter((item): item is QueueItem & { svg: string } => Boolean(item.svg));
    if (withResult.length === 0) return;
    const { bridge, toast } = this.options;
    if (bridge) {
      // The desktop app writes into one folder, so names stay flat there ("logos-acme.svg").
      const files: SvgFile[] = withResult.map((item) => ({ name: svgNameFor(item.path.replace(/\//g, '-')), svg: item.svg }));
      const result = await bridge.saveAll(files, mode);
      if (!result.canceled) toast(`Saved ${result.saved.length} SVG${result.saved.length === 1 ? '' : 's'}`);
      return;
    }
    // A dropped folder comes back as the same folders inside the ZIP.
    const names = archiveNames(withResult.map((item) => item.path.replace(/[^/\\]*$/, svgNameFor(item.name))));
    const encoder = new TextEncoder();
    const now = new Date();
    const zip = await zipFiles(
      withResult.map((item, index) => ({ name: names[index], data: encoder.encode(item.svg) })),
      now,
    );
    download(zip, `vectorize-${now.toISOString().slice(0, 10)}.zip`);
  }
}

function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
