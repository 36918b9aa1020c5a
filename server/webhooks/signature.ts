import { createHmac, timingSafeEqual } from 'node:crypto';

/** `X-Service-Signature` value: `sha256=` + hex HMAC-SHA256 of the raw body keyed with the secret. */
export function signBody(rawBody: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Receiver side, in constant time: what the receiver example in docs/webhooks.md does. */
export function verifySignature(rawBody: string | Uint8Array, secret: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(rawBody, secret));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
