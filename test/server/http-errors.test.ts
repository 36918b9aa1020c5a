/**
 * server/http-errors.ts owns the API's error vocabulary: every engine code is in it (the compiler
 * checks that too), and docs/api.md's error table says exactly what the table does.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { ENGINE_ERROR_CODES } from '../../engine/errors.js';
import { API_ERROR_CODES, HTTP_STATUS, isApiErrorCode, statusOf } from '../../server/http-errors.js';

t.test('every code the engine throws has an HTTP status', async (t) => {
  for (const code of ENGINE_ERROR_CODES) t.ok(isApiErrorCode(code), code);
  t.equal(statusOf('megapixels_exceeded'), 402);
  t.equal(statusOf('no_such_code'), 500, 'an unknown code is a server fault');
  t.notOk(isApiErrorCode('toString'), 'only the table’s own keys count');
});

t.test("docs/api.md's error table is the server's table", async (t) => {
  const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Errors'), doc.indexOf('\n## ', doc.indexOf('\n## Errors') + 1));
  const documented = Object.fromEntries([...section.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((row) => [row[1], Number(row[2])]));
  t.same(documented, HTTP_STATUS);
  t.equal(Object.keys(documented).length, API_ERROR_CODES.length);
});
