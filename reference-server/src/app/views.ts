/**
 * Views of the form (docs/insights.md#views): the subscribe endpoint's 404, origin and per-IP
 * checks (public-checks.ts), then one counter of the waitlist's day and channel goes up. Nothing
 * about the visitor is kept: no cookie, no identifier, not the address the throttle counted.
 */
import { channelOf, keptSource } from '@waitlistkit/protocol';
import type { Waitlist } from '../domain/records.js';
import type { Context } from './context.js';
import { originOn, type PublicSignupInput, type PublicWalks, publicWalks } from './public-checks.js';
import type { Refusal } from './refusal.js';
import { RememberedWaitlists } from './remembered-waitlists.js';

const DAY_MS = 86_400_000;

export type PublicViewResult = { origin?: string } & (
  | { kind: 'counted' }
  | { kind: 'refused'; refusal: Refusal }
  | { kind: 'failed'; error: unknown }
);

export class PublicViews {
  private readonly waitlists: RememberedWaitlists;
  private readonly walks: PublicWalks;

  constructor(private readonly ctx: Context) {
    this.waitlists = new RememberedWaitlists(ctx.store);
    this.walks = publicWalks(ctx);
  }

  async count(input: PublicSignupInput): Promise<PublicViewResult> {
    let found: Waitlist | undefined;
    try {
      found = await this.waitlists.read(input.waitlistId);
      const walked = await this.walks.view.run({ input, found, counted: {} });
      if (walked.stop) return { kind: 'refused', refusal: walked.stop.refusal, origin: walked.state.origin };
      const { waitlist, origin, source } = walked.state;
      const day = Math.floor(this.ctx.clock.now() / DAY_MS);
      const channel = channelOf(keptSource(source), false);
      await this.ctx.store.write((tx) => tx.stats.countView(waitlist.id, day, channel));
      return { kind: 'counted', origin };
    } catch (error) {
      return { kind: 'failed', error, origin: originOn(found, input.origin) };
    }
  }
}
