/**
 * WebhookRepository over the server's Store. Attempts live on their delivery record (`log`), so
 * the per-endpoint delivery log needs no collection of its own; finished deliveries beyond the
 * log limit are pruned as new attempts arrive, which keeps the lowdb file small.
 */
import type { Store } from '../adapters/store.js';
import type { DeliveryAttempt, DeliveryRecord, WebhookRecord, WebhookRepository } from './service.js';

export class StoreWebhookRepository implements WebhookRepository {
  constructor(private readonly store: Store) {}

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
    for (const record of records) this.store.deliveries.insert({ ...record, log: [] });
    // A delivery must be on disk before we rely on it surviving a restart.
    await this.store.flush();
  }

  async updateDelivery(record: DeliveryRecord): Promise<void> {
    const { id, state, attempts, next_attempt_at } = record;
    this.store.deliveries.update(id, { state, attempts, next_attempt_at });
  }

  async pendingDeliveries(): Promise<DeliveryRecord[]> {
    return this.store.deliveries.filter((record) => record.state === 'pending');
  }

  async appendAttempt(attempt: DeliveryAttempt, keep: number): Promise<void> {
    const delivery = this.store.deliveries.get(attempt.delivery_id);
    if (!delivery) return;
    this.store.deliveries.update(delivery.id, { log: [...(delivery.log ?? []), attempt] });
    const finished = this.store.deliveries
      .filter((record) => record.webhook_id === attempt.webhook_id && record.state !== 'pending')
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
    let kept = 0;
    for (const record of finished) {
      kept += record.log?.length ?? 0;
      if (kept > keep) this.store.deliveries.delete(record.id);
    }
  }

  async listAttempts(webhookId: string): Promise<DeliveryAttempt[]> {
    return this.store.deliveries
      .filter((record) => record.webhook_id === webhookId)
      .flatMap((record) => record.log ?? [])
      .sort((a, b) => b.at.localeCompare(a.at) || b.attempt - a.attempt);
  }
}
