import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryAttempt, DeliveryRecord, WebhookRecord, WebhookRepository } from '../../../server/webhooks/service.js';

/** Map-backed repository with the same contract as the store's implementation. */
export class MemoryWebhookRepository implements WebhookRepository {
  webhooks = new Map<string, WebhookRecord>();
  deliveries = new Map<string, DeliveryRecord>();

  async insertWebhook(record: WebhookRecord) { this.webhooks.set(record.id, structuredClone(record)); }
  async listWebhooks(filter: { accountId?: string } = {}) {
    return [...this.webhooks.values()].filter((w) => filter.accountId === undefined || w.account_id === filter.accountId).map((w) => structuredClone(w));
  }
  async getWebhook(id: string) { const w = this.webhooks.get(id); return w && structuredClone(w); }
  async deleteWebhook(id: string) { this.webhooks.delete(id); }
  async insertDeliveries(records: DeliveryRecord[]) { for (const r of records) this.deliveries.set(r.id, structuredClone(r)); }
  // Like the store: a delivery's state moves, its log only grows through appendAttempt.
  async updateDelivery(record: DeliveryRecord) {
    const existing = this.deliveries.get(record.id);
    if (existing) Object.assign(existing, { state: record.state, attempts: record.attempts, next_attempt_at: record.next_attempt_at });
  }
  async pendingDeliveries() { return [...this.deliveries.values()].filter((d) => d.state === 'pending').map((d) => structuredClone(d)); }
  async appendAttempt(attempt: DeliveryAttempt) { this.deliveries.get(attempt.delivery_id)?.log.push(attempt); }
  async listDeliveries(webhookId: string) {
    return [...this.deliveries.values()].filter((d) => d.webhook_id === webhookId).reverse().map((d) => structuredClone(d));
  }
}

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on a loopback address; `answer` decides each status in turn. */
export async function startReceiver(answer: (n: number, req: ReceivedRequest) => { status: number; headers?: Record<string, string> }, host = '127.0.0.1') {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const { status, headers } = answer(received.length, request);
      res.writeHead(status, headers);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: `http://${host}:${port}/hook`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
