import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fitWorkersPerTrace, RECYCLE_AFTER_MEGAPIXELS, workerPool } from '../../../server/adapters/engine-pool.js';
import type { EngineTask } from '../../../server/adapters/engine.js';
import { DEFAULT_TRACE_OPTIONS } from '../../../engine/types.js';

const FIT_PROBE_ENGINE = fileURLToPath(new URL('../../fixtures/server/fit-probe-engine.mjs', import.meta.url));

t.test('a trace gets fitting threads only from cores the pool leaves idle', async (t) => {
  t.equal(fitWorkersPerTrace(2, 2), 0, 'as many traces as cores (the default): none');
  t.equal(fitWorkersPerTrace(1, 2), 1, 'one trace on two cores: one');
  t.equal(fitWorkersPerTrace(2, 4), 1);
  t.equal(fitWorkersPerTrace(2, 16), 3, 'at most three, as the engine itself caps it');
  t.equal(fitWorkersPerTrace(4, 2), 0, 'more traces than cores: none');
});

t.test('the pool tells each engine worker how many fitting threads it may use', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-pool-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const inputPath = join(dir, 'in.png');
  writeFileSync(inputPath, 'x');
  const traceWith = async (fitWorkers: number | undefined, size: number) => {
    const pool = workerPool({ size, engineModule: FIT_PROBE_ENGINE, ...(fitWorkers === undefined ? {} : { fitWorkers }) });
    try {
      const outputPath = join(dir, `out-${fitWorkers}-${size}.svg`);
      const task: EngineTask = {
        jobId: `job_${fitWorkers}_${size}`,
        inputPath,
        outputPath,
        options: DEFAULT_TRACE_OPTIONS,
        maxPixels: 1e6,
      };
      await pool.run(task, () => {}).done;
      return Number(/data-fit-workers="(-?\d+)"/.exec(readFileSync(outputPath, 'utf8'))?.[1]);
    } finally {
      await pool.close();
    }
  };
  t.equal(await traceWith(2, 1), 2, 'an explicit number is passed through');
  t.equal(await traceWith(undefined, 64), fitWorkersPerTrace(64), 'by default the pool size decides (64 traces: none)');
});

const THREAD_PROBE_ENGINE = fileURLToPath(new URL('../../fixtures/server/thread-probe-engine.mjs', import.meta.url));

t.test('a worker is reused after small images and replaced after a large one, which hands its memory back', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-pool-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const pool = workerPool({ size: 1, engineModule: THREAD_PROBE_ENGINE });
  t.teardown(() => pool.close());
  let jobs = 0;
  const threadAfter = async (megapixels: number) => {
    const inputPath = join(dir, `in-${jobs}`);
    const outputPath = join(dir, `out-${jobs}.svg`);
    writeFileSync(inputPath, String(megapixels));
    await pool.run({ jobId: `job_${jobs++}`, inputPath, outputPath, options: DEFAULT_TRACE_OPTIONS, maxPixels: 1e8 }, () => {}).done;
    return Number(/data-thread="(\d+)"/.exec(readFileSync(outputPath, 'utf8'))?.[1]);
  };
  const small = await threadAfter(1);
  t.equal(await threadAfter(RECYCLE_AFTER_MEGAPIXELS - 0.5), small, 'below the threshold the same worker traces again');
  t.equal(await threadAfter(RECYCLE_AFTER_MEGAPIXELS), small, 'the large image is traced on the reused worker');
  const fresh = await threadAfter(1);
  t.not(fresh, small, 'the next job gets a fresh worker');
  t.equal(await threadAfter(1), fresh);
});
