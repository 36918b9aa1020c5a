/**
 * Turns a package's files into images: decoded rasters, and SVG, DXF, graphviz, xfig and PDF
 * sources drawn with resvg, dot, fig2dev and pdftoppm.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { RgbaImage } from '../../engine/types.js';
import { dxfToSvg } from '../lib/dxf.js';
import { fromEncoded } from './image-ops.js';
import { MODELS_DIR, PKGS, WORK, sample, seedOf } from './packages.js';

export async function raster(file: string): Promise<RgbaImage | null> {
  return fromEncoded(file);
}

/** What an SVG-based source draws for one file: an SVG file on disk and the size to render. */
export interface SvgJob {
  input: string;
  size: number;
}

const rendered = new Map<string, string | null>();

function jobKey(job: SvgJob): string {
  return createHash('sha256').update(`${job.input}\u0000${job.size}`).digest('hex').slice(0, 24);
}

/** Renders the jobs in a child process (restarted past any SVG that crashes resvg). */
export function renderBatch(jobs: SvgJob[]): void {
  const dir = join(WORK, 'render');
  mkdirSync(dir, { recursive: true });
  const todo = jobs.filter((j) => !rendered.has(jobKey(j))).map((j) => ({ ...j, output: join(dir, `${jobKey(j)}.png`) }));
  const pending = todo.filter((j) => !existsSync(j.output));
  // One list per process: two builds of different sources may run side by side.
  const list = join(WORK, `render-jobs-${process.pid}.json`);
  writeFileSync(list, JSON.stringify(pending));
  let start = 0;
  while (start < pending.length) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', join(MODELS_DIR, 'lib', 'render-svg.ts'), list, String(start)], {
      encoding: 'utf8',
      maxBuffer: 16 << 20,
      timeout: 600_000,
    });
    const lines = child.stdout.trim().split('\n');
    if (lines.at(-1) === 'done') break;
    const last = Number(/start (\d+)/.exec(lines.filter((l) => l.startsWith('start')).at(-1) ?? '')?.[1] ?? start);
    start = last + 1; // the job that crashed resvg stays without output
  }
  for (const j of todo) rendered.set(jobKey(j), existsSync(j.output) ? j.output : null);
}

export async function loadRendered(job: SvgJob | null): Promise<RgbaImage | null> {
  if (!job) return null;
  const key = jobKey(job);
  if (!rendered.has(key)) renderBatch([job]);
  const png = rendered.get(key);
  return png ? fromEncoded(png) : null;
}

export function svgFile(sizeMin: number, sizeMax: number) {
  return (file: string, random: () => number): SvgJob | null => {
    // Very large SVGs (maps, photo traces) take seconds each to render and are rarely clip art.
    if (readFileSync(file).length > 400_000) return null;
    return { input: file, size: Math.round(sizeMin + random() * (sizeMax - sizeMin)) };
  };
}

export function dxfFile(file: string, random: () => number): SvgJob | null {
  const svg = dxfToSvg(readFileSync(file, 'latin1'), 1000, 1 + random() * 2.5);
  if (!svg) return null;
  const out = convertedSvgPath('dxf', file);
  writeFileSync(out, svg);
  return { input: out, size: Math.round(400 + random() * 1200) };
}

export function graphvizFile(file: string, random: () => number): SvgJob | null {
  const out = convertedByTool('dot', file, 'dot', ['-Tsvg', file]);
  return out === null ? null : { input: out, size: Math.round(500 + random() * 1000) };
}

/** Where `file` converted to SVG is kept: under WORK/<kind>, named by a hash of the source's path. */
function convertedSvgPath(kind: string, file: string): string {
  mkdirSync(join(WORK, kind), { recursive: true });
  return join(WORK, kind, `${createHash('sha256').update(file).digest('hex').slice(0, 24)}.svg`);
}

/** `file` converted once by a tool that writes SVG to stdout (kept for later builds); null when the tool fails. */
function convertedByTool(kind: string, file: string, tool: string, args: string[]): string | null {
  const out = convertedSvgPath(kind, file);
  if (!existsSync(out)) {
    try {
      writeFileSync(out, execFileSync(tool, args, { timeout: 20_000, maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }));
    } catch {
      return null;
    }
  }
  return out;
}

const pdfPages = new Map<string, string[]>();

/** A PDF source yields one "file" per page: `<pdf>#<page>`. */
export function pdfPageList(pkg: string, pdfRelative: string, limit: number, pageSeed?: string): string[] {
  const key = pageSeed ? `${pkg}/${pdfRelative}\u0000${pageSeed}` : `${pkg}/${pdfRelative}`;
  if (!pdfPages.has(key)) {
    mkdirSync(WORK, { recursive: true });
    let pdf = join(PKGS, pkg, pdfRelative);
    if (pdf.endsWith('.gz')) {
      const out = join(WORK, basename(pdf, '.gz'));
      if (!existsSync(out)) writeFileSync(out, gunzipSync(readFileSync(pdf)));
      pdf = out;
    }
    const info = execFileSync('pdfinfo', [pdf]).toString();
    const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
    const all = Array.from({ length: pages }, (_, i) => `${pdf}#${i + 1}`);
    pdfPages.set(key, sample(all, limit, seedOf(key)));
  }
  return pdfPages.get(key)!;
}

export async function pdfPage(spec: string, random: () => number): Promise<RgbaImage | null> {
  const [pdf, page] = spec.split('#');
  const dpi = Math.round(80 + random() * 70);
  const png = execFileSync('pdftoppm', ['-r', String(dpi), '-f', page, '-l', page, '-singlefile', '-png', pdf], { maxBuffer: 64 << 20 });
  return fromEncoded(png);
}

export function xfigFile(file: string, random: () => number): SvgJob | null {
  const out = convertedByTool('fig', file, 'fig2dev', ['-L', 'svg', file]);
  return out === null ? null : { input: out, size: Math.round(400 + random() * 1200) };
}
