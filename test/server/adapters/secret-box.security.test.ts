import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { openSecretBox, secretBox, secretKeyPath } from '../../../server/adapters/secret-box.js';
import { tempDir } from '../helpers.js';

t.test('the key file is created 0600 whatever the umask, once, and reopened with the same key', async (t) => {
  const dir = tempDir(t, 'secrets');
  const previous = process.umask(0);
  t.teardown(() => process.umask(previous));
  const first = openSecretBox(dir);
  t.notOk(existsSync(secretKeyPath(dir)), 'no key until a secret is sealed');
  const sealed = first.seal('whsec_abc', 'whk_1');
  t.equal(statSync(secretKeyPath(dir)).mode & 0o777, 0o600);
  const keyBefore = readFileSync(secretKeyPath(dir), 'utf8');
  const again = openSecretBox(dir);
  t.equal(readFileSync(secretKeyPath(dir), 'utf8'), keyBefore, 'an existing key is never replaced');
  t.equal(again.open(sealed, 'whk_1'), 'whsec_abc');
});

t.test('a sealed value shows nothing of the secret and opens only with its key and its record', async (t) => {
  const box = secretBox([randomBytes(32)]);
  const sealed = box.seal('whsec_0123456789abcdefghijABCDEFGHIJ', 'whk_1');
  t.notMatch(sealed, /whsec_|0123456789/);
  t.not(box.seal('whsec_0123456789abcdefghijABCDEFGHIJ', 'whk_1'), sealed, 'a fresh nonce each time');
  t.throws(
    () => secretBox([randomBytes(32)]).open(sealed, 'whk_1'),
    /which secrets\.key does not hold/,
    'a copied db.json without its key cannot be opened',
  );
  t.throws(() => box.open(sealed, 'whk_2'), 'moved onto another endpoint it does not open');
  const [format, id, nonce, tag, body] = sealed.split('.');
  const flipped = Buffer.from(body!, 'base64url');
  flipped[0]! ^= 1;
  t.throws(() => box.open([format, id, nonce, tag, flipped.toString('base64url')].join('.'), 'whk_1'), 'a changed byte is refused');
  t.throws(() => box.open('whsec_plain', 'whk_1'), /not a sealed value/);
});

t.test('rotation: a new first key seals, older keys still open, isCurrent tells which need re-sealing', async (t) => {
  const dir = tempDir(t, 'secrets');
  const old = openSecretBox(dir);
  const sealedOld = old.seal('whsec_old', 'whk_1');
  const oldLine = readFileSync(secretKeyPath(dir), 'utf8').trim();
  writeFileSync(secretKeyPath(dir), `${randomBytes(32).toString('base64url')}\n${oldLine}\n`);
  const rotated = openSecretBox(dir);
  t.equal(rotated.open(sealedOld, 'whk_1'), 'whsec_old');
  t.notOk(rotated.isCurrent(sealedOld));
  const resealed = rotated.seal('whsec_old', 'whk_1');
  t.ok(rotated.isCurrent(resealed));
  writeFileSync(secretKeyPath(dir), `${readFileSync(secretKeyPath(dir), 'utf8').split('\n')[0]}\n`);
  t.equal(openSecretBox(dir).open(resealed, 'whk_1'), 'whsec_old', 'the old line can go once everything is re-sealed');
});

t.test('a damaged key file stops with a message naming it', async (t) => {
  const dir = tempDir(t, 'secrets');
  writeFileSync(secretKeyPath(dir), 'not-a-key\n');
  t.throws(() => openSecretBox(dir).seal('whsec_x', 'whk_1'), { message: new RegExp(`${secretKeyPath(dir)}: key 1 is not 32 bytes`) });
  writeFileSync(secretKeyPath(dir), '# empty\n');
  t.throws(() => openSecretBox(dir).open('v1.x.y.z.w', 'whk_1'), /holds no key/);
});
