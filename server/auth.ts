/**
 * The `api-key` auth scheme: `Authorization: Bearer service_sk_live_…` on every /v1 route.
 * 401 unauthorized for a missing, malformed, unknown or revoked key; 403 forbidden when the
 * key's account plan does not include the API for that key's scope (a lite account's plain
 * `api` keys; its `app` keys are the desktop app's and stay allowed).
 */
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { VectorizeError } from './http-errors.js';
import type { AccountRecord, KeyRecord } from './adapters/store.js';
import type { AccountService } from './services/accounts.js';
import type { KeyService } from './services/keys.js';

interface ApiCredentials {
  account: AccountRecord;
  key: KeyRecord;
}

declare module '@hapi/hapi' {
  interface UserCredentials {
    account: AccountRecord;
    key: KeyRecord;
  }
}

export function credentialsOf(request: Request): ApiCredentials {
  const creds = request.auth.credentials as unknown as { user?: ApiCredentials };
  return creds.user!;
}

export const API_AUTH = 'api-key';

export function registerApiAuth(server: Server, deps: { keys: KeyService; accounts: AccountService }): void {
  server.auth.scheme(API_AUTH, () => ({
    authenticate(request: Request, h: ResponseToolkit) {
      const header = request.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer +(\S+) *$/i.exec(header) : null;
      if (!match) throw new VectorizeError('unauthorized', 'A valid API key is required: Authorization: Bearer service_sk_live_…');
      const key = deps.keys.authenticate(match[1]);
      if (!key) throw new VectorizeError('unauthorized', 'The API key is not valid or has been revoked.');
      const account = deps.accounts.get(key.account_id);
      const plan = deps.accounts.limits(account);
      if (!plan.api && key.scope === 'api') {
        throw new VectorizeError(
          'forbidden',
          `The ${account.plan} plan does not include API access; use the desktop app or a plan with API access (Pro and above).`,
          {
            plan: account.plan,
            scope: key.scope,
          },
        );
      }
      return h.authenticated({ credentials: { user: { account, key } } });
    },
  }));
  server.auth.strategy(API_AUTH, API_AUTH);
}
