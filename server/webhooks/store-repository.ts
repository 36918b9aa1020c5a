/**
 * WebhookRepository over the server's Store. Attempts live on their delivery record (`log`), so
 * the per-endpoint delivery log needs no collection of its own; finished deliveries beyond the
 * log limit are pruned as new attempts arrive, which keeps the lowdb file small.
 */
import type { Store } from '../adapters/store.js';
import { DELIVERY_LOG_LIMIT, type DeliveryAttempt, type DeliveryRecord, type WebhookRecord, type WebhookRepository } from './service.js';

export class StoreWebhookRepository implements WebhookRepository {
  constructor(private readonly store: Store, private readonly keepAttempts = DELIVERY_LOG_LIMIT) {}

  async insertWebhook(record: WebhookRecord): Promise<void> {
    this.store.webhooks.insert({ ...record });
    await this.store.flush();
  }

  async listWebhooks(filter: { accountId?: string } = {}): Promise<WebhookRecord[]> {
    return this.store.webhooks
      .filter((record) => filter.accountId === undefined || record.account_id === filter.accountId)
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  async getWebhook(id: string): Promise<WebhookRecord | undefined> {
    return this.store.webhooks.get(id);
  }

  async deleteWebhook(id: string): Promise<void> {
    this.store.webhooks.delete(id);
    for (const delivery of this.store.deliveries.filter((record) => record.webhook_id === id)) this.store.deliveries.delete(delivery.id);
    await this.store.flush();
  }

  async insertDeliveries(records: DeliveryRecord[]): Promise<void> {
    for (const record of records) this.store.deliveries.insert({ ...record, log: [...record.log] });
    // A delivery must be on disk before we rely on it surviving a restart.
    await this.store.flush();
  }

  async updateDelivery(record: DeliveryRecord): Promise<void> {
    const { id, webhook_id, state, attempts, next_attempt_at } = record;
    this.store.deliveries.update(id, { state, attempts, next_attempt_at });
    if (state !== 'pending') this.pruneFinished(webhook_id);
  }

  async pendingDeliveries(): Promise<DeliveryRecord[]> {
    return this.store.deliveries.filter((record) => record.state === 'pending');
  }

  async appendAttempt(attempt: DeliveryAttempt): Promise<void> {
    const delivery = this.store.deliveries.get(attempt.delivery_id);
    if (delivery) this.store.deliveries.update(delivery.id, { log: [...delivery.log, attempt] });
  }

  /** Keeps the newest finished deliveries up to `keepAttempts` attempts in all for the endpoint. */
  private pruneFinished(webhookId: string): void {
    const finished = this.store.deliveries
      .filter((record) => record.webhook_id === webhookId && record.state !== 'pending')
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    let kept = 0;
    for (const record of finished) {
      kept += record.log.length;
      if (kept > this.keepAttempts) this.store.deliveries.delete(record.id);
    }
  }

  async listDeliveries(webhookId: string): Promise<DeliveryRecord[]> {
    return this.store.deliveries
      .filter((record) => record.webhook_id === webhookId)
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
  }
}
