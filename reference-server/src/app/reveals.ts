/**
 * Secrets shown once (an API key's value, a webhook endpoint's signing secret) on the page a
 * creation redirects to. Kept in the store, sealed (domain/one-time-secret.ts), so the redirect
 * may land on any server process; a reveal lasts one view or ten minutes, whichever comes first,
 * and only the operator who created the secret can view it.
 */
import { openReveal, REVEAL_MS, revealLookup, sealReveal } from '../domain/one-time-secret.js';
import type { Context } from './context.js';

export interface Reveal {
  /** What the secret belongs to: the page looks it up again, in the viewer's own tenant. */
  id: string;
  secret: string;
}

/** Holds `secret` for `operatorId`; the name to put in the address it is shown at. */
export async function holdReveal(
  ctx: Pick<Context, 'store' | 'clock'>,
  operatorId: string,
  subjectId: string,
  secret: string,
): Promise<string> {
  const { name, lookup, sealed } = sealReveal(secret);
  const expiresAt = ctx.clock.now() + REVEAL_MS;
  await ctx.store.write((tx) => tx.reveals.insert({ lookup, operatorId, subjectId, sealed, expiresAt }));
  return name;
}

/** The secret held under `name` for this operator, once; undefined when shown already, expired or another's. */
export async function takeReveal(
  ctx: Pick<Context, 'store' | 'clock'>,
  operatorId: string,
  name: string,
): Promise<Reveal | undefined> {
  const lookup = revealLookup(name);
  const held = await ctx.store.write((tx) => tx.reveals.take(lookup, operatorId, ctx.clock.now()));
  if (!held) return undefined;
  const secret = openReveal(name, held.sealed);
  return secret === undefined ? undefined : { id: held.subjectId, secret };
}
