/**
 * Webhook endpoints and their deliveries. Job moves become events; each event becomes one stored
 * delivery per subscribed endpoint; a dispatcher sends due deliveries and retries failures with
 * exponential backoff, so delivery is at least once and survives a restart (pending deliveries are
 * records, not timers). Attempts live on their delivery (`log`), so the per-endpoint delivery log
 * needs no collection of its own. Signing secrets are stored sealed (adapters/secret-box.ts).
 */
import { VectorizeError } from '../http-errors.js';
import { newId as defaultNewId, randomBase62, type IdPrefix } from '../ids.js';
import {
  WEBHOOK_EVENTS,
  type DeliveryAttempt,
  type DeliveryRecord,
  type EventBody,
  type Store,
  type WebhookEventKind,
  type WebhookRecord,
} from '../adapters/store.js';
import type { Clock } from '../adapters/clock.js';
import type { SecretBox } from '../adapters/secret-box.js';
import type { EventBus, JobEvent, JobEventName } from '../events.js';
import type { Logger } from '../log.js';
import type { AddressPolicy } from '../webhooks/address-policy.js';
import { checkWebhookUrl, type DeliveryOutcome, type Resolver, type WebhookSender } from '../webhooks/sender.js';
import { signBody } from '../webhooks/signature.js';

/** docs/webhooks.md: 1 attempt + 3 retries. */
export const MAX_ATTEMPTS = 4;
/** Each retry waits backoff × 4^(retry−1); jitter spreads a burst of retries by ±20 %. */
const BACKOFF_FACTOR = 4;
const JITTER = 0.2;
/** How many attempts each endpoint's delivery log keeps; older finished deliveries go. */
const DELIVERY_LOG_LIMIT = 50;

/** The moves that announce themselves, and the kind each becomes. */
const EVENT_FOR_MOVE: Partial<Record<JobEventName, WebhookEventKind>> = {
  'job.started': 'processing.started',
  'job.completed': 'processing.completed',
  'job.failed': 'processing.failed',
};

interface WebhookServiceDeps {
  store: Store;
  clock: Clock;
  secrets: SecretBox;
  policy: AddressPolicy;
  resolve: Resolver;
  sender: WebhookSender;
  backoffMs: number;
  log?: Logger;
  newId?: (prefix: IdPrefix) => string;
  random?: () => number;
  /** Deliveries sent at once. */
  concurrency?: number;
  /**
   * Whether this node sends the due deliveries; absent: it does. Where nodes share the records,
   * one node at a time holds the lease, or every node would send every delivery.
   */
  dispatches?: () => Promise<boolean>;
}

/** Records written before secrets were sealed carry the plain `secret`. */
type StoredWebhook = WebhookRecord & { secret?: string };

export function webhookService(deps: WebhookServiceDeps) {
  const { store, clock, secrets, policy, resolve, sender, backoffMs, log } = deps;
  const newId = deps.newId ?? defaultNewId;
  const random = deps.random ?? Math.random;
  const concurrency = deps.concurrency ?? 8;
  let timer: NodeJS.Timeout | undefined;
  const inFlight = new Set<string>();
  let pumping: Promise<void> | undefined;
  let stopped = true;

  const view = (record: WebhookRecord, withAccount = false) => ({
    id: record.id,
    url: record.url,
    events: record.events,
    ...(record.description ? { description: record.description } : {}),
    ...(withAccount ? { account_id: record.account_id } : {}),
    created_at: record.created_at,
  });

  const deliveryView = (record: DeliveryRecord) => {
    const last = record.log.at(-1);
    return {
      id: record.id,
      webhook_id: record.webhook_id,
      event: record.event.event,
      event_id: record.event.id,
      job_id: record.event.data.job_id,
      status: record.state,
      attempts: record.attempts,
      last_status_code: last?.status ?? null,
      last_error: last?.error ?? null,
      created_at: record.created_at,
      next_attempt_at: record.state === 'pending' ? record.next_attempt_at : null,
      log: record.log.map(({ attempt, status, ok, duration_ms, error, at }) => ({
        attempt,
        status,
        ok,
        duration_ms,
        ...(error ? { error } : {}),
        at,
      })),
    };
  };

  /** The endpoint if it belongs to the account (another account's answers not_found, never forbidden). */
  function get(id: string, accountId?: string): WebhookRecord {
    const record = store.webhooks.get(id);
    if (!record || (accountId !== undefined && record.account_id !== accountId)) {
      throw new VectorizeError('not_found', 'No such webhook endpoint.', { id });
    }
    return record;
  }

  function list(accountId?: string): WebhookRecord[] {
    return store.webhooks
      .filter((record) => accountId === undefined || record.account_id === accountId)
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  function listDeliveries(webhookId: string): DeliveryRecord[] {
    return store.deliveries.filter((record) => record.webhook_id === webhookId).sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  async function insertDeliveries(records: DeliveryRecord[]): Promise<void> {
    for (const record of records) store.deliveries.insert({ ...record, log: [...record.log] });
    // A delivery must be on disk before we rely on it surviving a restart.
    await store.flush();
    kick();
  }

  function pendingDelivery(endpoint: WebhookRecord, event: EventBody, now: string): DeliveryRecord {
    return {
      id: newId('dlv'),
      webhook_id: endpoint.id,
      account_id: endpoint.account_id,
      event,
      state: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      log: [],
    };
  }

  /** Keeps the newest finished deliveries up to DELIVERY_LOG_LIMIT attempts in all for the endpoint. */
  function pruneFinished(webhookId: string): void {
    const finished = store.deliveries
      .filter((record) => record.webhook_id === webhookId && record.state !== 'pending')
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    let kept = 0;
    for (const record of finished) {
      kept += record.log.length;
      if (kept > DELIVERY_LOG_LIMIT) store.deliveries.delete(record.id);
    }
  }

  function finish(delivery: DeliveryRecord, patch: Pick<DeliveryRecord, 'state' | 'attempts'>): void {
    store.deliveries.update(delivery.id, patch);
    pruneFinished(delivery.webhook_id);
  }

  function signingSecret(endpoint: StoredWebhook): string {
    return endpoint.secret_sealed ? secrets.open(endpoint.secret_sealed, endpoint.id) : endpoint.secret!;
  }

  /** Records one delivery per subscribed endpoint of the account and wakes the dispatcher. */
  async function emit(accountId: string, event: WebhookEventKind, data: EventBody['data']): Promise<DeliveryRecord[]> {
    const endpoints = list(accountId).filter((endpoint) => endpoint.events.includes(event));
    if (endpoints.length === 0) return [];
    const now = clock.now().toISOString();
    const body: EventBody = { id: newId('evt'), event, created_at: now, data };
    const deliveries = endpoints.map((endpoint) => pendingDelivery(endpoint, body, now));
    await insertDeliveries(deliveries);
    return deliveries;
  }

  function kick(): void {
    if (stopped || pumping) return;
    pumping = pump().finally(() => {
      pumping = undefined;
    });
  }

  async function pump(): Promise<void> {
    if (deps.dispatches && !(await deps.dispatches())) return;
    for (;;) {
      const now = clock.now().getTime();
      const due = store.deliveries
        .filter((delivery) => delivery.state === 'pending' && Date.parse(delivery.next_attempt_at) <= now && !inFlight.has(delivery.id))
        .sort((a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at))
        .slice(0, concurrency);
      if (due.length === 0 || stopped) {
        scheduleNextDue();
        return;
      }
      await Promise.all(due.map((delivery) => attempt(delivery)));
    }
  }

  /** Wakes exactly when the earliest retry falls due, so short test backoffs need no fast poll. */
  function scheduleNextDue(): void {
    if (stopped) return;
    const pending = store.deliveries.filter((delivery) => delivery.state === 'pending');
    const next = Math.min(...pending.map((delivery) => Date.parse(delivery.next_attempt_at)));
    if (!Number.isFinite(next)) return;
    const wait = Math.max(0, next - clock.now().getTime());
    setTimeout(kick, wait + 1).unref();
  }

  async function attempt(delivery: DeliveryRecord): Promise<void> {
    inFlight.add(delivery.id);
    try {
      const endpoint = store.webhooks.get(delivery.webhook_id);
      if (!endpoint) {
        finish(delivery, { state: 'failed', attempts: delivery.attempts });
        return;
      }
      const body = JSON.stringify(delivery.event);
      const attemptNumber = delivery.attempts + 1;
      let outcome: DeliveryOutcome;
      try {
        outcome = await sender.send({
          url: endpoint.url,
          body,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Vectorize-Webhooks/1',
            'x-service-event': delivery.event.event,
            'x-service-signature': signBody(body, signingSecret(endpoint)),
            'x-service-delivery': delivery.id,
            'x-service-attempt': String(attemptNumber),
          },
        });
      } catch (error) {
        // The secret cannot be opened (secrets.key lost or replaced): nothing unsigned ever leaves.
        log?.error('webhook secret cannot be opened', { webhook_id: endpoint.id, error: (error as Error).message });
        outcome = { ok: false, status: null, durationMs: 0, error: `signing secret unavailable: ${(error as Error).message}` };
      }
      const at = clock.now();
      const entry: DeliveryAttempt = {
        delivery_id: delivery.id,
        webhook_id: endpoint.id,
        event_id: delivery.event.id,
        event: delivery.event.event,
        attempt: attemptNumber,
        status: outcome.status,
        ok: outcome.ok,
        duration_ms: outcome.durationMs,
        ...(outcome.error ? { error: outcome.error } : {}),
        at: at.toISOString(),
      };
      const current = store.deliveries.get(delivery.id);
      if (!current) return; // the endpoint was deleted while the attempt ran
      store.deliveries.update(delivery.id, { log: [...current.log, entry] });
      if (outcome.ok) {
        finish(delivery, { attempts: attemptNumber, state: 'delivered' });
        return;
      }
      if (attemptNumber >= MAX_ATTEMPTS) {
        log?.warn('webhook delivery gave up', { delivery_id: delivery.id, webhook_id: endpoint.id, attempts: attemptNumber });
        finish(delivery, { attempts: attemptNumber, state: 'failed' });
        return;
      }
      const jitter = 1 + (random() * 2 - 1) * JITTER;
      const delay = backoffMs * BACKOFF_FACTOR ** (attemptNumber - 1) * jitter;
      store.deliveries.update(delivery.id, { attempts: attemptNumber, next_attempt_at: new Date(at.getTime() + delay).toISOString() });
    } finally {
      inFlight.delete(delivery.id);
    }
  }

  return {
    view,
    deliveryView,
    get,
    list,
    emit,

    /** Registers an endpoint; the plain secret is in this answer only (the store keeps it sealed). */
    async create(
      accountId: string,
      input: { url: string; events?: string[]; description?: string },
    ): Promise<{ webhook: WebhookRecord; secret: string }> {
      const events = input.events === undefined || input.events.length === 0 ? [...WEBHOOK_EVENTS] : input.events;
      for (const event of events) {
        if (!(WEBHOOK_EVENTS as readonly string[]).includes(event)) {
          throw new VectorizeError('invalid_parameter', `events: unknown event kind "${event}"`, {
            field: 'events',
            allowed: WEBHOOK_EVENTS,
          });
        }
      }
      try {
        await checkWebhookUrl(input.url, policy, resolve);
      } catch (error) {
        throw new VectorizeError('invalid_parameter', `url: ${(error as Error).message}`, { field: 'url' });
      }
      const id = newId('whk');
      const secret = `whsec_${randomBase62(32)}`;
      const webhook: WebhookRecord = {
        id,
        account_id: accountId,
        url: input.url,
        secret_sealed: secrets.seal(secret, id),
        events: [...new Set(events)] as WebhookEventKind[],
        ...(input.description ? { description: input.description } : {}),
        created_at: clock.now().toISOString(),
      };
      store.webhooks.insert(webhook);
      await store.flush();
      return { webhook, secret };
    },

    async remove(id: string, accountId?: string): Promise<void> {
      get(id, accountId);
      store.webhooks.delete(id);
      for (const delivery of store.deliveries.filter((record) => record.webhook_id === id)) store.deliveries.delete(delivery.id);
      await store.flush();
    },

    /** The endpoint's recent deliveries, newest first, each with its attempts. */
    deliveries(id: string, accountId?: string): DeliveryRecord[] {
      get(id, accountId);
      return listDeliveries(id);
    },

    /** The endpoint's recent attempts across deliveries, newest first. */
    attempts(id: string, accountId?: string): DeliveryAttempt[] {
      get(id, accountId);
      return listDeliveries(id)
        .flatMap((delivery) => delivery.log)
        .sort((a, b) => b.at.localeCompare(a.at) || b.attempt - a.attempt);
    },

    /** Sends a `processing.completed`-shaped test event to one endpoint, whatever its filter. */
    async sendTest(id: string, accountId?: string): Promise<DeliveryRecord> {
      const endpoint = get(id, accountId);
      const now = clock.now().toISOString();
      const delivery = pendingDelivery(
        endpoint,
        { id: newId('evt'), event: 'processing.completed', created_at: now, data: { job_id: 'job_test', status: 'completed' } },
        now,
      );
      await insertDeliveries([delivery]);
      return delivery;
    },

    /**
     * Turns job moves on the bus into deliveries. `downloadBase` is read per event: the receiver
     * fetches the SVG straight away (with its API key), and no request is at hand here.
     */
    listen(events: EventBus, downloadBase: () => string): void {
      for (const [move, kind] of Object.entries(EVENT_FOR_MOVE) as Array<[JobEventName, WebhookEventKind]>) {
        events.on(move, ({ job }: JobEvent) => {
          const data = {
            job_id: job.id,
            status: job.status,
            ...(kind === 'processing.completed' ? { download_url: `${downloadBase()}/v1/jobs/${job.id}/download` } : {}),
            ...(kind === 'processing.failed' && job.error ? { error: { code: job.error.code } } : {}),
          };
          emit(job.account_id, kind, data).catch((error: Error) => {
            log?.error('webhook event not recorded', { job_id: job.id, event: kind, error: error.message });
          });
        });
      }
    },

    /**
     * Seals secrets left in plain text by an older version and re-seals those an older key sealed
     * (after a key rotation); returns how many records changed.
     */
    async sealSecrets(): Promise<number> {
      let changed = 0;
      for (const record of store.webhooks.all() as StoredWebhook[]) {
        if (record.secret_sealed && secrets.isCurrent(record.secret_sealed)) continue;
        // `secret: undefined` drops the plain field from the stored record.
        store.webhooks.update(record.id, {
          secret_sealed: secrets.seal(signingSecret(record), record.id),
          secret: undefined,
        } as Partial<StoredWebhook>);
        changed++;
      }
      if (changed) await store.flush();
      return changed;
    },

    /** Forgets deliveries created before `cutoff` (ms), whatever their state; the retention sweep calls it. */
    prune(cutoff: number): number {
      let removed = 0;
      for (const delivery of store.deliveries.filter((d) => new Date(d.created_at).getTime() < cutoff)) {
        store.deliveries.delete(delivery.id);
        removed++;
      }
      return removed;
    },

    /** Starts dispatching; pending deliveries stored before a restart are picked up here. */
    start(pollMs = 1000): void {
      stopped = false;
      timer = setInterval(kick, pollMs);
      timer.unref();
      kick();
    },

    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await pumping;
    },

    /** Resolves once no delivery is due or in flight (tests and graceful shutdown). */
    async drain(): Promise<void> {
      while (pumping) await pumping;
    },
  };
}

export type WebhookService = ReturnType<typeof webhookService>;
