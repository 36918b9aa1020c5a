/**
 * How often each screen refreshes: the job queue every second (it moves), webhook deliveries every
 * two, the server's health every three, the slower lists every five.
 */
export const JOBS_POLL_MS = 1000;
export const DELIVERIES_POLL_MS = 2000;
export const SERVER_POLL_MS = 3000;
export const LISTS_POLL_MS = 5000;
