/**
 * Unsubscribing (docs/messages.md#unsubscribe), keyed by the subscriber's status token: what the
 * link's page shows, and the POST (the page's button, or a mail client's one-click) that stops
 * welcome and referral mail. Unsubscribing twice answers the same; an erased subscriber's
 * token, like one never issued, finds nobody.
 */
import type { Unsubscribing } from '../store/statements/messages.js';
import type { Base } from './guard.js';

export const unsubscribeUrl = (appUrl: string, statusToken: string) =>
  `${appUrl}/s/${statusToken}/unsubscribe`;

export function unsubscribeView(ctx: Base, token: string): Promise<Unsubscribing | undefined> {
  return ctx.store.reads.messages.byStatusToken(token);
}

export function unsubscribe(ctx: Base, token: string): Promise<Unsubscribing | undefined> {
  return ctx.store.write((tx) => tx.messages.unsubscribe(token, ctx.clock.nowMicros()));
}
