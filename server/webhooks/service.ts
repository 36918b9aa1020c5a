/**
 * Webhook endpoints and their deliveries. Job moves become events; each event becomes one stored
 * delivery per subscribed endpoint; a dispatcher sends due deliveries and retries failures with
 * exponential backoff, so delivery is at least once and survives a restart (pending deliveries are
 * records, not timers). Storage, clock, ids and the sender are injected adapters.
 */
import { VectorizeError } from '../http-errors.js';
import { newId, randomBase62, type IdPrefix } from '../ids.js';
import type { AddressPolicy } from './address-policy.js';
import { checkWebhookUrl, type DeliveryOutcome, type Resolver, type WebhookSender } from './sender.js';
import { signBody } from './signature.js';

export const WEBHOOK_EVENTS = ['processing.started', 'processing.completed', 'processing.failed'] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENTS)[number];

/** docs/webhooks.md: 1 attempt + 3 retries. */
export const MAX_ATTEMPTS = 4;
/** Each retry waits backoff × 4^(retry−1); jitter spreads a burst of retries by ±20 %. */
const BACKOFF_FACTOR = 4;
const JITTER = 0.2;
/** How many attempts each endpoint's delivery log keeps. */
export const DELIVERY_LOG_LIMIT = 50;

export interface WebhookRecord {
  id: string;
  account_id: string;
  url: string;
  secret: string;
  events: WebhookEventKind[];
  description?: string;
  created_at: string;
}

export interface EventBody {
  id: string;
  event: WebhookEventKind;
  created_at: string;
  data: { job_id: string; status: string; download_url?: string; error?: { code: string } };
}

export interface DeliveryRecord {
  id: string;
  webhook_id: string;
  account_id: string;
  event: EventBody;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string;
  created_at: string;
  /** Every attempt so far, oldest first: the endpoint's delivery log. */
  log: DeliveryAttempt[];
}

export interface DeliveryAttempt {
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  event: WebhookEventKind;
  attempt: number;
  status: number | null;
  ok: boolean;
  duration_ms: number;
  error?: string;
  at: string;
}

/** The storage this service needs; the server's store implements it (lowdb today). */
export interface WebhookRepository {
  insertWebhook(record: WebhookRecord): Promise<void>;
  listWebhooks(filter?: { accountId?: string }): Promise<WebhookRecord[]>;
  getWebhook(id: string): Promise<WebhookRecord | undefined>;
  deleteWebhook(id: string): Promise<void>;
  insertDeliveries(records: DeliveryRecord[]): Promise<void>;
  /**
   * Moves state, attempts and next_attempt_at; the log is left as appendAttempt made it. When a
   * delivery finishes, older finished ones past DELIVERY_LOG_LIMIT attempts per endpoint may go.
   */
  updateDelivery(record: DeliveryRecord): Promise<void>;
  pendingDeliveries(): Promise<DeliveryRecord[]>;
  /** Adds the attempt to its delivery's log. */
  appendAttempt(attempt: DeliveryAttempt): Promise<void>;
  /** The endpoint's deliveries, newest first. */
  listDeliveries(webhookId: string): Promise<DeliveryRecord[]>;
}

export interface WebhookServiceOptions {
  repository: WebhookRepository;
  sender: WebhookSender;
  policy: AddressPolicy;
  resolve: Resolver;
  backoffMs: number;
  now?: () => Date;
  newId?: (prefix: IdPrefix) => string;
  random?: () => number;
  log?: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
  /** Deliveries sent at once. */
  concurrency?: number;
}

export class WebhookService {
  private readonly options: Required<Omit<WebhookServiceOptions, 'log'>> & Pick<WebhookServiceOptions, 'log'>;
  private timer: NodeJS.Timeout | undefined;
  private inFlight = new Set<string>();
  private pumping: Promise<void> | undefined;
  private stopped = true;

  constructor(options: WebhookServiceOptions) {
    this.options = {
      now: () => new Date(),
      newId,
      random: Math.random,
      concurrency: 8,
      ...options,
    };
  }

  async create(accountId: string, input: { url: string; events?: string[]; description?: string }): Promise<WebhookRecord> {
    const events = input.events === undefined || input.events.length === 0 ? [...WEBHOOK_EVENTS] : input.events;
    for (const event of events) {
      if (!(WEBHOOK_EVENTS as readonly string[]).includes(event)) {
        throw new VectorizeError('invalid_parameter', `events: unknown event kind "${event}"`, { field: 'events', allowed: WEBHOOK_EVENTS });
      }
    }
    try {
      await checkWebhookUrl(input.url, this.options.policy, this.options.resolve);
    } catch (error) {
      throw new VectorizeError('invalid_parameter', `url: ${(error as Error).message}`, { field: 'url' });
    }
    const record: WebhookRecord = {
      id: this.options.newId('whk'),
      account_id: accountId,
      url: input.url,
      secret: `whsec_${randomBase62(32)}`,
      events: [...new Set(events)] as WebhookEventKind[],
      ...(input.description ? { description: input.description } : {}),
      created_at: this.options.now().toISOString(),
    };
    await this.options.repository.insertWebhook(record);
    return record;
  }

  list(accountId?: string): Promise<WebhookRecord[]> {
    return this.options.repository.listWebhooks(accountId === undefined ? {} : { accountId });
  }

  /** The endpoint if it belongs to the account (another account's answers not_found, never forbidden). */
  async get(id: string, accountId?: string): Promise<WebhookRecord> {
    const record = await this.options.repository.getWebhook(id);
    if (!record || (accountId !== undefined && record.account_id !== accountId)) {
      throw new VectorizeError('not_found', 'No such webhook endpoint.', { id });
    }
    return record;
  }

  async remove(id: string, accountId?: string): Promise<void> {
    await this.get(id, accountId);
    await this.options.repository.deleteWebhook(id);
  }

  /** The endpoint's recent deliveries, newest first, each with its attempts. */
  async deliveries(id: string, accountId?: string): Promise<DeliveryRecord[]> {
    await this.get(id, accountId);
    return this.options.repository.listDeliveries(id);
  }

  /** The endpoint's recent attempts across deliveries, newest first. */
  async attempts(id: string, accountId?: string): Promise<DeliveryAttempt[]> {
    return (await this.deliveries(id, accountId))
      .flatMap((delivery) => delivery.log)
      .sort((a, b) => b.at.localeCompare(a.at) || b.attempt - a.attempt);
  }

  /** Records one delivery per subscribed endpoint of the account and wakes the dispatcher. */
  async emit(accountId: string, event: WebhookEventKind, data: EventBody['data'], onlyWebhookId?: string): Promise<DeliveryRecord[]> {
    const endpoints = (await this.options.repository.listWebhooks({ accountId }))
      .filter((endpoint) => endpoint.events.includes(event) && (onlyWebhookId === undefined || endpoint.id === onlyWebhookId));
    if (endpoints.length === 0) return [];
    const now = this.options.now().toISOString();
    const body: EventBody = { id: this.options.newId('evt'), event, created_at: now, data };
    const deliveries = endpoints.map((endpoint): DeliveryRecord => ({
      id: this.options.newId('dlv'),
      webhook_id: endpoint.id,
      account_id: accountId,
      event: body,
      state: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      log: [],
    }));
    await this.options.repository.insertDeliveries(deliveries);
    this.kick();
    return deliveries;
  }

  /** Sends a `processing.completed`-shaped test event to one endpoint, whatever its filter. */
  async sendTest(id: string, accountId?: string): Promise<DeliveryRecord> {
    const endpoint = await this.get(id, accountId);
    const now = this.options.now().toISOString();
    const delivery: DeliveryRecord = {
      id: this.options.newId('dlv'),
      webhook_id: endpoint.id,
      account_id: endpoint.account_id,
      event: { id: this.options.newId('evt'), event: 'processing.completed', created_at: now, data: { job_id: 'job_test', status: 'completed' } },
      state: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      log: [],
    };
    await this.options.repository.insertDeliveries([delivery]);
    this.kick();
    return delivery;
  }

  /** Starts dispatching; pending deliveries stored before a restart are picked up here. */
  start(pollMs = 1000): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), pollMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.pumping;
  }

  /** Resolves once no delivery is due or in flight (tests and graceful shutdown). */
  async drain(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  private kick(): void {
    if (this.stopped || this.pumping) return;
    this.pumping = this.pump().finally(() => {
      this.pumping = undefined;
    });
  }

  private async pump(): Promise<void> {
    for (;;) {
      const now = this.options.now().getTime();
      const due = (await this.options.repository.pendingDeliveries())
        .filter((delivery) => Date.parse(delivery.next_attempt_at) <= now && !this.inFlight.has(delivery.id))
        .sort((a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at))
        .slice(0, this.options.concurrency);
      if (due.length === 0 || this.stopped) {
        this.scheduleNextDue();
        return;
      }
      await Promise.all(due.map((delivery) => this.attempt(delivery)));
    }
  }

  /** Wakes exactly when the earliest retry falls due, so short test backoffs need no fast poll. */
  private scheduleNextDue(): void {
    if (this.stopped) return;
    void this.options.repository.pendingDeliveries().then((pending) => {
      const next = Math.min(...pending.map((delivery) => Date.parse(delivery.next_attempt_at)));
      if (!Number.isFinite(next)) return;
      const wait = Math.max(0, next - this.options.now().getTime());
      setTimeout(() => this.kick(), wait + 1).unref();
    });
  }

  private async attempt(delivery: DeliveryRecord): Promise<void> {
    this.inFlight.add(delivery.id);
    try {
      const endpoint = await this.options.repository.getWebhook(delivery.webhook_id);
      if (!endpoint) {
        await this.options.repository.updateDelivery({ ...delivery, state: 'failed' });
        return;
      }
      const body = JSON.stringify(delivery.event);
      const attemptNumber = delivery.attempts + 1;
      const outcome: DeliveryOutcome = await this.options.sender.send({
        url: endpoint.url,
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Vectorize-Webhooks/1',
          'x-service-event': delivery.event.event,
          'x-service-signature': signBody(body, endpoint.secret),
          'x-service-delivery': delivery.id,
          'x-service-attempt': String(attemptNumber),
        },
      });
      const at = this.options.now();
      await this.options.repository.appendAttempt({
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
      });
      if (outcome.ok) {
        await this.options.repository.updateDelivery({ ...delivery, attempts: attemptNumber, state: 'delivered' });
        return;
      }
      if (attemptNumber >= MAX_ATTEMPTS) {
        this.options.log?.('warn', 'webhook delivery gave up', { delivery_id: delivery.id, webhook_id: endpoint.id, attempts: attemptNumber });
        await this.options.repository.updateDelivery({ ...delivery, attempts: attemptNumber, state: 'failed' });
        return;
      }
      const jitter = 1 + (this.options.random() * 2 - 1) * JITTER;
      const delay = this.options.backoffMs * BACKOFF_FACTOR ** (attemptNumber - 1) * jitter;
      await this.options.repository.updateDelivery({
        ...delivery,
        attempts: attemptNumber,
        next_attempt_at: new Date(at.getTime() + delay).toISOString(),
      });
    } finally {
      this.inFlight.delete(delivery.id);
    }
  }
}
