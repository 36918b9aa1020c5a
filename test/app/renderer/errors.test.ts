import t from 'tap';
import { API_ERROR_CODES } from '../../../server/http-errors.js';
import { ApiError, UnreachableError } from '../../../client/http.js';
import { describeError, plainWords, toPlainError } from '../../../app/renderer/errors.js';

t.test('every code of the error vocabulary has its own plain words', async (t) => {
  const generic = plainWords('no_such_code');
  const seen = new Set<string>();
  for (const code of API_ERROR_CODES) {
    const words = plainWords(code);
    t.not(words, generic, code);
    t.notMatch(words, /_/, `${code} is explained, not repeated`);
    seen.add(words);
  }
  t.equal(seen.size, API_ERROR_CODES.length, 'no two codes share the same words');
});

t.test('details make the words precise', async (t) => {
  t.match(plainWords('quota_exhausted', { reset_at: '2025-03-04T00:00:00.000Z' }), /resets on 2025-03-04/);
  t.notMatch(plainWords('quota_exhausted', { reset_at: null }), /resets/, 'the trial never resets');
  t.match(plainWords('invalid_parameter', { field: 'smoothing' }), /smoothing/);
});

t.test('client errors become code + words, always showing the code', async (t) => {
  const api = new ApiError(415, { code: 'unsupported_format', message: 'server words', details: {} });
  t.same(toPlainError(api), { code: 'unsupported_format', words: plainWords('unsupported_format') });
  t.equal(describeError(toPlainError(api)), `${plainWords('unsupported_format')} (unsupported_format)`);
  t.equal(toPlainError(new UnreachableError('http://x', new Error('refused'))).code, 'unreachable');
  t.equal(toPlainError(new Error('boom')).code, 'internal_error');
  t.equal(toPlainError(undefined).code, 'internal_error');
});
