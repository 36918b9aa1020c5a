import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fitWorkersPerTrace, workerPool } from '../../../server/adapters/engine-pool.js';
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
      const task: EngineTask = { jobId: `job_${fitWorkers}_${size}`, inputPath, outputPath, options: DEFAULT_TRACE_OPTIONS, maxPixels: 1e6 };
      await pool.run(task, () => {}).done;
      return Number(/data-fit-workers="(-?\d+)"/.exec(readFileSync(outputPath, 'utf8'))?.[1]);
    } finally {
      await pool.close();
    }
  };
  t.equal(await traceWith(2, 1), 2, 'an explicit number is passed through');
  t.equal(await traceWith(undefined, 64), fitWorkersPerTrace(64), 'by default the pool size decides (64 traces: none)');
});
