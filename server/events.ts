/**
 * The server's typed event bus. Job moves are announced here; the webhooks service
 * subscribes and turns them into `processing.*` deliveries, so the job service never knows about
 * HTTP callbacks.
 */
import { EventEmitter } from 'node:events';
import type { JobRecord } from './adapters/store.js';

export type JobEventName = 'job.started' | 'job.completed' | 'job.failed' | 'job.canceled';

export interface JobEvent {
  name: JobEventName;
  job: Readonly<JobRecord>;
  at: string;
}

export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per subscriber plugin; many would mean a leak.
    this.emitter.setMaxListeners(20);
  }

  emit(name: JobEventName, job: JobRecord, at: Date): void {
    const event: JobEvent = { name, job: Object.freeze({ ...job }), at: at.toISOString() };
    // A subscriber's failure must not break the job move that announced it.
    for (const listener of this.emitter.listeners(name)) {
      try {
        (listener as (e: JobEvent) => void)(event);
      } catch {
        /* subscribers log their own errors */
      }
    }
  }

  on(name: JobEventName, listener: (event: JobEvent) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
