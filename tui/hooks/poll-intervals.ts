/**
 * How often each screen refreshes: the job queue and the header's queue counts every second (they
 * move, and the header must agree with the Jobs screen), webhook deliveries every two, the slower
 * lists every five.
 */
export const JOBS_POLL_MS = 1000;
export const DELIVERIES_POLL_MS = 2000;
export const SERVER_POLL_MS = 1000;
export const LISTS_POLL_MS = 5000;
