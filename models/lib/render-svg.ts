/**
 * Child process that rasterises a batch of SVG files with resvg. resvg can abort the whole
 * process on a malformed drawing (a Rust panic is not a JS exception), so the dataset builder
 * runs it here and restarts after the file that killed it.
 *
 *   node --import tsx models/lib/render-svg.ts JOBS.json START
 * JOBS.json: [{ "input": "a.svg", "output": "a.png", "size": 512 }]; prints "start N" before job N.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';

interface Job {
  input: string;
  output: string;
  size: number;
}

const jobs = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Job[];
for (let i = Number(process.argv[3] ?? 0); i < jobs.length; i++) {
  const job = jobs[i];
  process.stdout.write(`start ${i}\n`);
  try {
    const bytes = readFileSync(job.input);
    const svg = job.input.endsWith('.svgz') ? gunzipSync(bytes) : bytes;
    const probe = new Resvg(svg);
    const fitTo = probe.width >= probe.height ? { mode: 'width' as const, value: job.size } : { mode: 'height' as const, value: job.size };
    writeFileSync(job.output, new Resvg(svg, { fitTo, font: { loadSystemFonts: true } }).render().asPng());
  } catch {
    // An unreadable SVG just has no output file; the builder counts it as skipped.
  }
}
process.stdout.write('done\n');
