/**
 * Email confirmation's two use cases (contract §15): what the link's page shows, and the
 * button's confirmation. Sign-up queues the mail itself (the store, with the row), and the
 * outbox sends it.
 */
import type { Context } from './context.js';

export interface ConfirmationPage {
  waitlistName: string;
  confirmed: boolean;
  statusUrl: string | undefined;
}

/** The page of a confirmation link: undefined (a 404 page) for an unknown token or an archived waitlist. */
export async function confirmationPage(ctx: Context, token: string): Promise<ConfirmationPage | undefined> {
  const view = await ctx.store.reads.confirmations.byToken(token);
  if (!view) return undefined;
  return {
    waitlistName: view.waitlistName,
    confirmed: view.confirmed,
    statusUrl: view.statusToken ? `${ctx.config.appUrl}/s/${view.statusToken}` : undefined,
  };
}

/** Confirms the address; true when the token is known (a second confirmation is harmless). */
export async function confirmEmail(ctx: Context, token: string): Promise<boolean> {
  const done = await ctx.store.write((tx) => tx.confirmations.confirm(token, ctx.clock.nowMicros()));
  return done !== undefined;
}
