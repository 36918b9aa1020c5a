import t, { type Test } from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../../server/config.js';
import { DEFAULT_PLANS } from '../../server/plans.js';
import { plansFile } from './helpers.js';

/** Asserts loadConfig refuses `env` with a ConfigError that names `variable` and says `says`. */
function refuses(t: Test, env: Record<string, string>, variable: string, says: RegExp): string {
  let error: unknown;
  try {
    loadConfig(env);
  } catch (caught) {
    error = caught;
  }
  t.type(error, ConfigError, `${JSON.stringify(env)} is refused`);
  const message = (error as ConfigError | undefined)?.message ?? '';
  t.equal((error as ConfigError | undefined)?.variable, variable);
  t.ok(message.startsWith(`${variable}: `), 'the message starts with the variable');
  t.match(message, says);
  return message;
}

t.test('an empty environment gives the documented defaults', async (t) => {
  const config = loadConfig({});
  t.equal(config.host, '127.0.0.1');
  t.equal(config.port, 8080);
  t.equal(config.dataDir, resolve('./data'));
  t.ok(config.workers >= 1);
  t.equal(config.queueMax, 1000);
  t.equal(config.minFreeBytes, 1024 ** 3);
  t.same(config.plans, DEFAULT_PLANS);
  t.equal(config.plansFile, null);
  t.same(config.webhookAllowCidrs, []);
  t.equal(config.webhookBackoffMs, 30_000);
  t.equal(config.device, 'auto');
  t.equal(config.logLevel, 'info');
  t.equal(config.publicUrl, null);
  t.equal(config.engineModule, null);
  t.equal(config.jobTimeoutMinMs, 120_000);
  t.equal(config.jobTimeoutFactor, 20);
  t.equal(config.maxAttempts, 3);
  t.equal(config.recordTtlDays, 30);
  t.equal(config.sweepCron, '* * * * *');
  t.ok(Object.isFrozen(config) && Object.isFrozen(config.plans.pro) && Object.isFrozen(config.webhookAllowCidrs), 'frozen');
});

t.test('values are trimmed, blank ones count as unset, paths are resolved', async (t) => {
  const config = loadConfig({
    PORT: ' 9090 ',
    VECTORIZE_WORKERS: '',
    VECTORIZE_LOG_LEVEL: '  ',
    VECTORIZE_DATA_DIR: 'var/data',
    VECTORIZE_ENGINE_MODULE: 'engines/fake.mjs',
    VECTORIZE_PUBLIC_URL: 'https://vectorize.example/app//',
    VECTORIZE_SWEEP_CRON: '*/5 * * * *',
    UNRELATED_VARIABLE: 'ignored',
  });
  t.equal(config.port, 9090);
  t.equal(config.logLevel, 'info');
  t.equal(config.dataDir, resolve('var/data'));
  t.equal(config.engineModule, resolve('engines/fake.mjs'));
  t.equal(config.publicUrl, 'https://vectorize.example/app', 'trailing slashes go');
  t.equal(config.sweepCron, '*/5 * * * *');
});

t.test('numbers must be whole, written in digits, and in range', async (t) => {
  for (const value of ['1e3', '+5', '7.0', '-1', 'eighty', '0x50']) refuses(t, { PORT: value }, 'PORT', /must be a whole number/);
  refuses(t, { PORT: '70000' }, 'PORT', /less than or equal to 65535, got 70000/);
  refuses(t, { VECTORIZE_WORKERS: '0' }, 'VECTORIZE_WORKERS', /greater than or equal to 1/);
  refuses(t, { VECTORIZE_WORKERS: '257' }, 'VECTORIZE_WORKERS', /less than or equal to 256/);
  refuses(t, { VECTORIZE_QUEUE_MAX: '0' }, 'VECTORIZE_QUEUE_MAX', /greater than or equal to 1/);
  refuses(t, { VECTORIZE_JOB_TIMEOUT_MIN_MS: '999' }, 'VECTORIZE_JOB_TIMEOUT_MIN_MS', /greater than or equal to 1000/);
  refuses(t, { VECTORIZE_MAX_ATTEMPTS: '101' }, 'VECTORIZE_MAX_ATTEMPTS', /less than or equal to 100/);
  refuses(t, { VECTORIZE_RECORD_TTL_DAYS: '0' }, 'VECTORIZE_RECORD_TTL_DAYS', /greater than or equal to 1/);
  refuses(t, { VECTORIZE_MIN_FREE_BYTES: '99999999999999999999' }, 'VECTORIZE_MIN_FREE_BYTES', /safe number/);
});

t.test('choices, URLs and CIDR lists are checked', async (t) => {
  refuses(t, { VECTORIZE_DEVICE: 'gpu' }, 'VECTORIZE_DEVICE', /one of \[auto, cpu, cuda\], got "gpu"/);
  refuses(t, { VECTORIZE_LOG_LEVEL: 'verbose' }, 'VECTORIZE_LOG_LEVEL', /one of \[debug, info, warn, error, silent\]/);
  for (const url of ['ftp://files.example', 'not a url', '/relative/path']) {
    refuses(t, { VECTORIZE_PUBLIC_URL: url }, 'VECTORIZE_PUBLIC_URL', /http\|https/);
  }
  const cidrs = { VECTORIZE_WEBHOOK_ALLOW_CIDRS: '10.0.0.0/33' };
  refuses(t, cidrs, 'VECTORIZE_WEBHOOK_ALLOW_CIDRS', /not a CIDR range; expected comma-separated ranges/);
});

t.test('VECTORIZE_SWEEP_CRON is checked by node-cron at boot, not when the sweep is scheduled', async (t) => {
  refuses(t, { VECTORIZE_SWEEP_CRON: '61 * * * *' }, 'VECTORIZE_SWEEP_CRON', /cron expression.*61 is a invalid expression for minute/);
  refuses(t, { VECTORIZE_SWEEP_CRON: 'every minute' }, 'VECTORIZE_SWEEP_CRON', /cron expression.*expected 5 or 6 fields/);
  refuses(t, { VECTORIZE_SWEEP_CRON: '* * * * * * *' }, 'VECTORIZE_SWEEP_CRON', /cron expression/);
  t.equal(loadConfig({ VECTORIZE_SWEEP_CRON: '0 */6 * * *' }).sweepCron, '0 */6 * * *');
  t.equal(loadConfig({ VECTORIZE_SWEEP_CRON: '30 * * * * *' }).sweepCron, '30 * * * * *', 'node-cron also takes a seconds field');
});

t.test('a plans file is merged over the defaults', async (t) => {
  const file = plansFile({
    pro: { monthlyAllowance: 800, maxRetention: '3d' },
    lite: { monthlyAllowance: 0 },
    studio: { monthlyAllowance: null },
  });
  const config = loadConfig({ VECTORIZE_PLANS_FILE: file });
  t.equal(config.plansFile, file);
  t.same(config.plans.pro, { ...DEFAULT_PLANS.pro, monthlyAllowance: 800, maxRetention: '3d' });
  t.equal(config.plans.lite.monthlyAllowance, 0);
  t.equal(config.plans.studio.monthlyAllowance, null, 'null is unlimited');
  t.same(config.plans.agency, DEFAULT_PLANS.agency, 'plans the file leaves out keep their defaults');
  t.equal(DEFAULT_PLANS.pro.monthlyAllowance, 500, 'the defaults themselves are untouched');
});

t.test('a plans file with a bad value is refused, naming the plan and the setting', async (t) => {
  const cases: Array<[Record<string, Record<string, unknown>>, RegExp]> = [
    [{ pro: { monthlyAllowance: -1 } }, /pro\.monthlyAllowance must be greater than or equal to 0, got -1/],
    [{ pro: { monthlyAllowance: 2.5 } }, /pro\.monthlyAllowance must be an integer/],
    [{ pro: { monthlyAllowance: '500' } }, /pro\.monthlyAllowance must be a number, got "500"/],
    [{ pro: { dailyFuse: -3 } }, /pro\.dailyFuse must be greater than or equal to 0/],
    [{ pro: { batchGroup: 0 } }, /pro\.batchGroup must be greater than or equal to 1/],
    [{ pro: { activeJobs: 0 } }, /pro\.activeJobs must be greater than or equal to 1/],
    [{ pro: { maxMegapixels: -16 } }, /pro\.maxMegapixels must be a positive number/],
    [{ agency: { maxMegapixels: 101 } }, /agency\.maxMegapixels must be less than or equal to 100, got 101/],
    [{ pro: { maxRetention: 'none' } }, /pro\.maxRetention must be one of \[24h, 3d, 7d, 10d\], got "none"/],
    [{ pro: { api: 'yes' } }, /pro\.api must be a boolean/],
    [{ pro: { allowance: 800 } }, /pro\.allowance is not a plan setting \(api, monthlyAllowance,/],
    [{ platinum: {} }, /platinum is not a plan \(trial, lite, pro, studio, agency, enterprise\)/],
  ];
  for (const [overrides, says] of cases) {
    const file = plansFile(overrides);
    t.ok(refuses(t, { VECTORIZE_PLANS_FILE: file }, 'VECTORIZE_PLANS_FILE', says).includes(file), 'the message names the file');
  }
});

t.test('a plans file that is not a JSON object of plans is refused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-config-'));
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  refuses(t, { VECTORIZE_PLANS_FILE: join(dir, 'missing.json') }, 'VECTORIZE_PLANS_FILE', /cannot read JSON from .*missing\.json/);
  refuses(t, { VECTORIZE_PLANS_FILE: write('broken.json', '{ "pro": ') }, 'VECTORIZE_PLANS_FILE', /cannot read JSON/);
  refuses(t, { VECTORIZE_PLANS_FILE: write('list.json', '[1, 2]') }, 'VECTORIZE_PLANS_FILE', /must hold a JSON object keyed by plan/);
  refuses(t, { VECTORIZE_PLANS_FILE: write('null.json', 'null') }, 'VECTORIZE_PLANS_FILE', /must hold a JSON object keyed by plan/);
  const notSettings = write('number.json', '{ "pro": 3 }');
  refuses(t, { VECTORIZE_PLANS_FILE: notSettings }, 'VECTORIZE_PLANS_FILE', /pro must be an object of plan settings/);
});

t.test('VECTORIZE_ROLE splits API and workers only where PostgreSQL shares the queue', async (t) => {
  const database = { VECTORIZE_DATABASE_URL: 'postgres://vectorize@db.internal/vectorize' };
  t.equal(loadConfig({}).role, 'all');
  t.equal(loadConfig({ ...database, VECTORIZE_ROLE: 'api' }).role, 'api');
  t.equal(loadConfig({ ...database, VECTORIZE_ROLE: 'worker', VECTORIZE_HEALTH_PORT: '9090' }).healthPort, 9090);
  refuses(t, { VECTORIZE_ROLE: 'gpu' }, 'VECTORIZE_ROLE', /must be one of \[all, api, worker\], got "gpu"/);
  refuses(t, { VECTORIZE_ROLE: 'api' }, 'VECTORIZE_ROLE', /"api" needs VECTORIZE_DATABASE_URL/);
  refuses(t, { VECTORIZE_ROLE: 'worker' }, 'VECTORIZE_ROLE', /"worker" needs VECTORIZE_DATABASE_URL/);
  refuses(t, { ...database, VECTORIZE_HEALTH_PORT: '9090' }, 'VECTORIZE_HEALTH_PORT', /is for VECTORIZE_ROLE=worker/);
  refuses(
    t,
    { ...database, VECTORIZE_ROLE: 'worker', VECTORIZE_HEALTH_PORT: '0' },
    'VECTORIZE_HEALTH_PORT',
    /must be greater than or equal to 1/,
  );
});
