/**
 * GET /metrics in Prometheus' text exposition format (version 0.0.4). Open to the admin rule
 * (loopback + the admin token) and, when VECTORIZE_METRICS_TOKEN is set, to that bearer token from
 * any address, so a Prometheus on another machine can scrape without the admin token.
 *
 * Gauges are read from the store when scraped (job and delivery records: the whole cluster's, as
 * this node sees them); the trace-time histogram counts the jobs this node completed since it
 * started, as a per-instance series does.
 */
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import Joi from 'joi';
import { IMAGE_CLASSES } from '../../engine/types.js';
import { JOB_STATUSES } from '../adapters/store.js';
import type { AppContext } from '../context.js';
import { assertAdminAccess, bearerMatches } from './admin.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });
const METRICS_AUTH = 'metrics-token';
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Seconds: a small clip-art trace takes well under one, a large photo on a CPU minutes. */
export const TRACE_SECONDS_BUCKETS = [0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300] as const;
const DELIVERY_OUTCOMES = ['pending', 'delivered', 'failed'] as const;

class Histogram {
  readonly counts = new Map<string, { buckets: number[]; sum: number; count: number }>();
  constructor(readonly bounds: readonly number[]) {}
  observe(label: string, value: number) {
    let series = this.counts.get(label);
    if (!series) {
      series = { buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
      this.counts.set(label, series);
    }
    this.bounds.forEach((bound, i) => {
      if (value <= bound) series.buckets[i]!++;
    });
    series.sum += value;
    series.count++;
  }
}

/** A label value as the format wants it: backslash, double quote and newline escaped. */
function labelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function family(name: string, type: 'gauge' | 'counter' | 'histogram', help: string, samples: string[]): string {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples].join('\n');
}

export const metricsPlugin: Plugin<{ app: AppContext }> = {
  name: 'metrics',
  register(server, options) {
    Joi.assert(options, optionsSchema);
    const { app } = options;
    const token = app.config.metricsToken;

    server.auth.scheme(METRICS_AUTH, () => ({
      authenticate(request: Request, h: ResponseToolkit) {
        if (!bearerMatches(request, token)) assertAdminAccess(request, app.adminToken);
        return h.authenticated({ credentials: { app: { metrics: true } } });
      },
    }));
    server.auth.strategy(METRICS_AUTH, METRICS_AUTH);

    const traceSeconds = new Histogram(TRACE_SECONDS_BUCKETS);
    app.events.on('job.completed', ({ job }) => {
      if (!job.started_at || !job.completed_at) return;
      const seconds = Math.max(0, (Date.parse(job.completed_at) - Date.parse(job.started_at)) / 1000);
      traceSeconds.observe(job.mode ?? 'unknown', seconds);
    });

    async function exposition(): Promise<string> {
      const jobs = app.store.jobs.all();
      const byState = new Map<string, number>(JOB_STATUSES.map((state) => [state, 0]));
      for (const job of jobs) byState.set(job.status, (byState.get(job.status) ?? 0) + 1);
      const deliveries = new Map<string, number>(DELIVERY_OUTCOMES.map((outcome) => [outcome, 0]));
      for (const delivery of app.store.deliveries.all()) deliveries.set(delivery.state, (deliveries.get(delivery.state) ?? 0) + 1);
      // Every class appears from the first scrape, so a rate() over it never starts from a missing series.
      for (const imageClass of IMAGE_CLASSES)
        if (!traceSeconds.counts.has(imageClass))
          traceSeconds.counts.set(imageClass, { buckets: TRACE_SECONDS_BUCKETS.map(() => 0), sum: 0, count: 0 });
      const histogram: string[] = [];
      for (const [imageClass, series] of traceSeconds.counts) {
        const label = `class="${labelValue(imageClass)}"`;
        TRACE_SECONDS_BUCKETS.forEach((bound, i) =>
          histogram.push(`vectorize_trace_seconds_bucket{${label},le="${bound}"} ${series.buckets[i]}`),
        );
        histogram.push(`vectorize_trace_seconds_bucket{${label},le="+Inf"} ${series.count}`);
        histogram.push(`vectorize_trace_seconds_sum{${label}} ${series.sum}`);
        histogram.push(`vectorize_trace_seconds_count{${label}} ${series.count}`);
      }
      const loop = app.eventLoop();
      return (
        [
          family(
            'vectorize_queue_depth',
            'gauge',
            "Jobs waiting for a worker: with PostgreSQL the durable queue's entries across the cluster, else this process's queue.",
            [`vectorize_queue_depth ${await app.services.jobs.waitingCount()}`],
          ),
          family('vectorize_processing', 'gauge', 'Jobs this node is tracing now.', [
            `vectorize_processing ${app.services.jobs.processingCount}`,
          ]),
          family(
            'vectorize_jobs',
            'gauge',
            'Job records by state.',
            [...byState].map(([state, n]) => `vectorize_jobs{state="${labelValue(state)}"} ${n}`),
          ),
          family('vectorize_trace_seconds', 'histogram', 'Start to completion of the jobs this node completed, by image class.', histogram),
          family(
            'vectorize_webhook_deliveries',
            'gauge',
            'Stored webhook deliveries by outcome (pending: retries left).',
            [...deliveries].map(([outcome, n]) => `vectorize_webhook_deliveries{outcome="${labelValue(outcome)}"} ${n}`),
          ),
          family('vectorize_event_loop_delay_seconds', 'gauge', "This node's event-loop delay since it started.", [
            `vectorize_event_loop_delay_seconds{stat="mean"} ${loop.mean_ms / 1000}`,
            `vectorize_event_loop_delay_seconds{stat="p99"} ${loop.p99_ms / 1000}`,
            `vectorize_event_loop_delay_seconds{stat="max"} ${loop.max_ms / 1000}`,
          ]),
        ].join('\n') + '\n'
      );
    }

    server.route({
      method: 'GET',
      path: '/metrics',
      options: {
        auth: METRICS_AUTH,
        tags: ['api', 'health'],
        description: 'Prometheus metrics: queue depth, jobs by state, trace seconds by class, webhook deliveries, event-loop delay',
      },
      async handler(_request, h) {
        return h.response(await exposition()).type(PROMETHEUS_CONTENT_TYPE);
      },
    });
  },
};
