/**
 * What a batch `vectorize convert IN… [-o OUT]` will do, decided before anything is traced: the
 * folders walked (recursively, in name order), each file judged an image by its first bytes (the
 * engine's sniffer, the extension is never trusted), and each image's SVG path. With OUT the
 * folder structure under each input folder is kept; without it each SVG lands beside its image.
 */
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { sniff } from '../../engine/decode/sniff.js';

export interface PlannedImage {
  input: string;
  /** The input as the user will recognise it in the report (relative to the folder given). */
  label: string;
  output: string;
}

type SkipReason = 'not_an_image' | 'exists';

export interface Skipped {
  label: string;
  reason: SkipReason;
  output?: string;
}

export interface Missing {
  label: string;
  message: string;
}

interface BatchPlan {
  images: PlannedImage[];
  skipped: Skipped[];
  missing: Missing[];
}

/** Enough bytes for every signature the sniffer knows (the ISO-BMFF `ftyp` box is the longest). */
const SNIFF_BYTES = 64;

export async function planBatch(inputs: string[], outDir: string | undefined, force: boolean): Promise<BatchPlan> {
  const candidates: Array<{ input: string; label: string; relative: string }> = [];
  const missing: Missing[] = [];
  const seen = new Set<string>();
  const excluded = outDir ? path.resolve(outDir) : null;
  for (const given of inputs) {
    let info;
    try {
      info = await stat(given);
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : String((error as Error).message);
      missing.push({ label: given, message: `cannot read ${given}: ${why}` });
      continue;
    }
    if (info.isDirectory()) {
      for (const relative of await walk(given, excluded)) {
        const input = path.join(given, relative);
        if (seen.has(path.resolve(input))) continue;
        seen.add(path.resolve(input));
        candidates.push({ input, label: input, relative });
      }
    } else if (!seen.has(path.resolve(given))) {
      seen.add(path.resolve(given));
      candidates.push({ input: given, label: given, relative: path.basename(given) });
    }
  }

  const images: Array<{ input: string; label: string; relative: string }> = [];
  const skipped: Skipped[] = [];
  for (const candidate of candidates) {
    if (await isImage(candidate.input)) images.push(candidate);
    else skipped.push({ label: candidate.label, reason: 'not_an_image' });
  }

  const planned: PlannedImage[] = [];
  for (const image of assignOutputs(images, outDir)) {
    if (!force && (await exists(image.output))) skipped.push({ label: image.label, reason: 'exists', output: image.output });
    else planned.push(image);
  }
  return { images: planned, skipped, missing };
}

/** Files under `root` as paths relative to it, depth first in name order; `excluded` (the output folder) is not entered. */
async function walk(root: string, excluded: string | null): Promise<string[]> {
  const found: string[] = [];
  const visit = async (relative: string) => {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const child = path.join(relative, entry.name);
      // Symlinked folders are not followed: a link back up the tree would never end.
      if (entry.isDirectory()) {
        if (path.resolve(root, child) !== excluded) await visit(child);
      } else if (
        entry.isFile() ||
        (entry.isSymbolicLink() &&
          (await stat(path.join(root, child)).then(
            (s) => s.isFile(),
            () => false,
          )))
      ) {
        found.push(child);
      }
    }
  };
  await visit('');
  return found;
}

async function isImage(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
    const head = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return bytesRead > 0 && sniff(head.subarray(0, bytesRead)).kind === 'ours';
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}

/**
 * `name.svg` for each image, beside it or under outDir at its place in the tree. Two images that
 * would share one SVG (`logo.png` and `logo.jpg`) keep their extension instead (`logo.png.svg`),
 * so neither result replaces the other.
 */
function assignOutputs(images: Array<{ input: string; label: string; relative: string }>, outDir: string | undefined): PlannedImage[] {
  const target = (image: { input: string; relative: string }, keepExtension: boolean) => {
    const base = outDir ? path.join(outDir, image.relative) : image.input;
    const parsed = path.parse(base);
    return path.join(parsed.dir, `${keepExtension ? parsed.base : parsed.name}.svg`);
  };
  const counts = new Map<string, number>();
  for (const image of images) {
    const output = path.resolve(target(image, false));
    counts.set(output, (counts.get(output) ?? 0) + 1);
  }
  return images.map((image) => {
    const shared = (counts.get(path.resolve(target(image, false))) ?? 0) > 1;
    return { input: image.input, label: image.label, output: target(image, shared) };
  });
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
