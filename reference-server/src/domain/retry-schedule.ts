/**
 * When a failed delivery is tried again (docs/webhooks.md#retries): after 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h and 10 h, then it is marked failed. WAITLIST_WEBHOOK_RETRY_SCHEDULE replaces the
 * schedule (comma-separated seconds), which is also how tests make retries come at once.
 */
export const DEFAULT_RETRY_SCHEDULE_S: readonly number[] = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

/** The schedule in milliseconds from its text form; throws a readable error for anything else. */
export function parseRetrySchedule(text: string | undefined): number[] {
  if (text === undefined || text.trim() === '') return DEFAULT_RETRY_SCHEDULE_S.map((s) => s * 1000);
  const items = text.split(',').map((s) => s.trim());
  if (items.length > 50 || items.some((s) => !/^\d{1,7}$/.test(s))) {
    throw new Error(
      `WAITLIST_WEBHOOK_RETRY_SCHEDULE must be up to 50 comma-separated whole numbers of seconds, not ${JSON.stringify(text)}.`,
    );
  }
  return items.map((s) => Number(s) * 1000);
}

/**
 * After `attempts` failed attempts (1 or more), when to try again, or undefined when the
 * schedule is spent and the delivery is failed.
 */
export function nextAttemptAt(
  schedule: readonly number[],
  attempts: number,
  failedAt: number,
): number | undefined {
  const wait = schedule[attempts - 1];
  return wait === undefined ? undefined : failedAt + wait;
}
