/**
 * The database's health as one server process sees it, and what follows from it: when an outage
 * begins and ends (each said once in the log, however many requests and loops fail meanwhile),
 * how often the server looks for the database while it is away, and how long a client is told to
 * wait. Pure: the caller brings the clock and does the looking (app/database-health.ts).
 *
 * An outage begins with the first failure that says the database is unreachable or cannot write,
 * and ends only when a probe has written: on SQLite a full disk still reads, and a write that
 * changes nothing writes nothing, so no other success proves it is back.
 */
export type Health =
  | { up: true }
  | {
      up: false;
      /** When the first failure was seen (ms). */
      since: number;
      /** The driver's word for it: ECONNREFUSED, 57P01, SQLITE_FULL, … */
      code: string;
      /** Probes that failed since. */
      probes: number;
    };

export const UP: Health = { up: true };

/** A failure that says the database is away: the outage begins, unless one is under way. */
export function failed(health: Health, now: number, code: string): { health: Health; began: boolean } {
  if (!health.up) return { health, began: false };
  return { health: { up: false, since: now, code, probes: 0 }, began: true };
}

/** A probe's result: the outage ends (and how long it lasted), or it goes on, one probe older. */
export function probed(
  health: Health,
  now: number,
  wrote: boolean,
): { health: Health; ended?: { downMs: number; code: string } } {
  if (health.up) return { health };
  if (wrote) return { health: UP, ended: { downMs: now - health.since, code: health.code } };
  return { health: { ...health, probes: health.probes + 1 } };
}

const FIRST_PROBE_MS = 250;
const LONGEST_PROBE_MS = 5_000;

/**
 * How long after the last probe (or the outage's start) the next one runs: soon, since most
 * outages are a restart, then less and less often, never longer apart than five seconds, so a
 * load balancer sees /healthz recover within seconds of the database.
 */
export function probeDelayMs(health: Health): number {
  if (health.up) return 0;
  return Math.min(LONGEST_PROBE_MS, FIRST_PROBE_MS * 2 ** health.probes);
}

/**
 * `Retry-After` of a 503, in seconds: an outage is seconds long at best, so sooner is in vain; a
 * busy database (locked, out of connections) is a moment's wait.
 */
export function retryAfterSeconds(kind: 'busy' | 'unavailable'): number {
  return kind === 'busy' ? 1 : 5;
}
