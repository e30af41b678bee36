/** Timestamps, stored the same way by every adapter: ISO 8601 in UTC for records; microseconds for join order. */
export const isoNow = (nowMs: number) => new Date(nowMs).toISOString();

/** RFC 3339 with microseconds: join times are strictly increasing at that resolution. */
export function isoFromMicros(us: number): string {
  const ms = Math.floor(us / 1000);
  const seconds = new Date(ms).toISOString().slice(0, 19);
  const fraction = String(us % 1_000_000).padStart(6, '0');
  return `${seconds}.${fraction}Z`;
}
