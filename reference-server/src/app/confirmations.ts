/**
 * Email confirmation's two use cases (docs/subscribers.md#email-confirmation): what the link's page shows, and the
 * button's confirmation. Sign-up queues the mail itself (the store, with the row), and the
 * outbox sends it. The button is throttled per client address.
 */
import type { Language } from '@waitlistkit/protocol';
import { clientKey } from '../domain/client-key.js';
import type { Context } from './context.js';

export interface ConfirmationPage {
  waitlistName: string;
  confirmed: boolean;
  statusUrl: string | undefined;
  lang: Language;
}

/** The page of a confirmation link: undefined (a 404 page) for an unknown token or an archived waitlist. */
export async function confirmationPage(ctx: Context, token: string): Promise<ConfirmationPage | undefined> {
  const view = await ctx.store.reads.confirmations.byToken(token);
  if (!view) return undefined;
  return {
    waitlistName: view.waitlistName,
    confirmed: view.confirmed,
    statusUrl: view.statusToken ? `${ctx.config.appUrl}/s/${view.statusToken}` : undefined,
    lang: view.lang,
  };
}

/** Confirms the address; true when the token is known (a second confirmation is harmless). */
export async function confirmEmail(ctx: Context, token: string): Promise<boolean> {
  const done = await ctx.store.write((tx) => tx.confirmations.confirm(token, ctx.clock.nowMicros()));
  return done !== undefined;
}

export type PressResult =
  | { kind: 'confirmed' }
  | { kind: 'unknown' }
  | { kind: 'throttled'; retryAfter: number };

/**
 * The button's press from a client address: counted per client first (domain/client-key),
 * whatever the token, so the button is no way to try tokens at speed; then `confirmEmail`.
 */
export async function pressConfirm(
  ctx: Context,
  token: string,
  ip: string | undefined,
): Promise<PressResult> {
  const taken = await ctx.limiters.confirm.take(clientKey(ip), ctx.clock.now(), ctx.limits.confirm);
  if (!taken.allowed) return { kind: 'throttled', retryAfter: taken.retryAfter };
  return (await confirmEmail(ctx, token)) ? { kind: 'confirmed' } : { kind: 'unknown' };
}
