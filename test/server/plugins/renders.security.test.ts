/**
 * Attacks on POST /v1/jobs/{id}/render: another account's job, ids shaped like paths, a palette
 * far past 64 colours, a body of megabytes, a file smuggled into the form. Each gets the
 * contract's answer and leaves no job, no file and no charge behind.
 */
import t from 'tap';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { errorOf, harness, statusOf, waitFor, type Harness } from '../helpers.js';
import { multipart } from '../helpers.js';

async function completedJobId(h: Harness, secret: string): Promise<string> {
  const { id } = h.json<{ id: string }>(await h.submit(secret));
  await waitFor(() => statusOf(h, id) === 'processing');
  h.pool.complete(id);
  await waitFor(() => statusOf(h, id) === 'completed');
  return id;
}

t.test("another account's job answers exactly like a missing one, and is not drawn", async (t) => {
  const h = await harness(t, { workers: 1 });
  const owner = await h.account('pro');
  const stranger = await h.account('pro');
  const id = await completedJobId(h, owner.secret);
  const theirs = await h.render(stranger.secret, id, { palette: '#000000' });
  const missing = await h.render(stranger.secret, 'job_doesnotexist000000', { palette: '#000000' });
  t.equal(theirs.statusCode, 404);
  t.same(JSON.parse(theirs.payload), JSON.parse(missing.payload), 'the same body: no way to tell it exists');
  t.equal(
    h.app.context.store.jobs.count((j) => j.render_of === id),
    0,
    'no job was made',
  );
  // The owner's state must not leak either: a not-ready job of another account is still a 404.
  const queued = h.json<{ id: string }>(await h.submit(owner.secret));
  t.equal((await h.render(stranger.secret, queued.id, { palette: '#000000' })).statusCode, 404);
});

t.test('ids shaped like paths never reach a file', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('pro');
  const id = await completedJobId(h, secret);
  // The completed job's upload is removed in the background; wait for the folder to be empty.
  await waitFor(() => readdirSync(join(h.dir, 'uploads')).length === 0, 'the upload to go');
  for (const evil of [`..%2Fresults%2F${id}`, `..%2F..%2Fetc%2Fpasswd`, `${id}%00`, `%2e%2e`, `${id}.json`, 'results%2F' + id]) {
    const response = await h.render(secret, evil, { group_by: 'color' });
    t.equal(response.statusCode, 404, evil);
    t.equal(errorOf(response).code, 'not_found');
  }
  const longId = await h.render(secret, 'j'.repeat(500), { group_by: 'color' });
  t.equal(longId.statusCode, 400, 'a 500-character id is refused before any lookup');
  t.match(errorOf(longId), { code: 'invalid_parameter', details: { field: 'id' } });
  t.same(readdirSync(join(h.dir, 'uploads')), [], 'no upload copied');
});

t.test('a palette past 64 colours, a body of megabytes and a file part are refused with invalid_parameter', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('pro');
  const id = await completedJobId(h, secret);
  const colours = Array.from({ length: 65 }, (_, i) => `#${i.toString(16).padStart(6, '0')}`).join(',');
  const palette = await h.render(secret, id, { palette: colours });
  t.equal(palette.statusCode, 400);
  t.match(errorOf(palette), { code: 'invalid_parameter', details: { field: 'palette' } });

  const huge = await h.render(secret, id, { palette: `#000000,${'#ffffff,'.repeat((10 * 1024 * 1024) / 8)}#000000` });
  t.equal(huge.statusCode, 400, 'a 10 MB field is a bad form, not an upload');
  t.match(errorOf(huge), { code: 'invalid_parameter', details: { field: 'request' } });

  const form = multipart({ group_by: 'color' }, { name: 'file', data: h.png });
  const withFile = await h.app.server.inject({
    method: 'POST',
    url: `/v1/jobs/${id}/render`,
    payload: form.payload,
    headers: { ...form.headers, authorization: `Bearer ${secret}` },
  });
  t.equal(withFile.statusCode, 400);
  t.match(errorOf(withFile), { code: 'invalid_parameter', details: { field: 'file' } });

  const twice = await h.render(secret, id, { group_by: ['color', 'none'] });
  t.match(errorOf(twice), { code: 'invalid_parameter', details: { field: 'group_by' } });
  t.equal(
    h.app.context.store.jobs.count((j) => j.render_of === id),
    0,
    'none of them made a job',
  );
  t.same(readdirSync(join(h.dir, 'uploads')), [], 'nor left an upload behind');
});
