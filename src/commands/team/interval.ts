/** `team --watch` refreshes every this many seconds by default, and never more often than the minimum. */
export const WATCH_INTERVAL_S = 30;
export const MIN_WATCH_INTERVAL_S = 10;
