/**
 * Secrets shown once (an API key's value, a webhook endpoint's signing secret) on the page a
 * creation redirects to. In memory only: a secret is never written anywhere, and a reveal lasts
 * one view or ten minutes, whichever comes first, under a random name nobody can guess.
 */
import { randomBytes } from 'node:crypto';

const REVEAL_MS = 10 * 60_000;

export interface Reveal {
  /** What the secret belongs to: the page looks it up again, in the viewer's own tenant. */
  id: string;
  secret: string;
}

export function oneTimeReveals(clock: { now(): number }) {
  const held = new Map<string, Reveal & { until: number }>();
  return {
    /** Holds the secret; the name to put in the address it is shown at. */
    put(id: string, secret: string): string {
      const name = randomBytes(16).toString('base64url');
      held.set(name, { id, secret, until: clock.now() + REVEAL_MS });
      return name;
    },
    /** The secret held under `name`, once; undefined when it was shown already or expired. */
    take(name: string): Reveal | undefined {
      const entry = held.get(name);
      held.delete(name);
      for (const [other, e] of held) if (e.until < clock.now()) held.delete(other);
      return entry && entry.until > clock.now() ? { id: entry.id, secret: entry.secret } : undefined;
    },
  };
}
