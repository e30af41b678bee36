/**
 * Reading the line: pages, exports and the status page; and what operators do to subscribers.
 * Each answer is read in one snapshot, so the waitlist's settings and the rows they rank come
 * from the same committed state.
 */
import { ADMISSION_MAX, checkEmail } from '@waitlistkit/protocol';
import type {
  Admission,
  ListedSubscriber,
  ListPage,
  PageQuery,
  StatusView,
  Waitlist,
} from '../domain/records.js';
import type { Repositories, Store } from '../store/store.js';
import type { Context } from './context.js';
import { type Acting, type Attempt, adminOnly, type Base, own, type Scope } from './guard.js';
import { admitIn, eraseIn } from './lifecycle.js';
import { invalid, notFound, ok, type Result, refuse } from './refusal.js';

/** A page of a live waitlist, or undefined when it is missing or archived. */
export function listPage(store: Store, waitlistId: string, query: PageQuery): Promise<ListPage | undefined> {
  return store.read(async (tx) => {
    const waitlist = await tx.waitlists.get(waitlistId);
    if (!waitlist || waitlist.archived) return undefined;
    return tx.subscribers.list(waitlist.id, waitlist.settings, query);
  });
}

/** The status page of a token: undefined (a 404 page) for an unknown token, an archived waitlist or referrals off. */
export async function statusView(store: Store, token: string): Promise<StatusView | undefined> {
  const found = await store.read((tx) => tx.subscribers.byStatusToken(token));
  return found && !found.archived && found.settings.referrals ? found : undefined;
}

// ------------------------------------------------------------------ what operators do (docs/subscribers.md#lifecycle)

/** A subscriber as the command line names one: by id, or by email on the waitlist. */
export type SubscriberRef = { id: string } | { email: string };

/** A subscriber with their waitlist, read together. */
export interface Found {
  waitlist: Waitlist;
  subscriber: ListedSubscriber;
}

/** How many of whom someone referred their page lists; the rest are counted. */
export const REFERRED_SHOWN = 20;

/** The form's one-time token is remembered this long once used: far longer than any double click. */
const FORM_TOKEN_KEPT_MS = 24 * 60 * 60_000;

/**
 * Subscribers as their operators see them: everything held about one (an access request), and
 * letting people in or erasing them, admins only, on waitlists of their own tenant.
 */
export class Subscribers {
  constructor(private readonly ctx: Base & Pick<Context, 'erasureCleanup'>) {}

  /** The id `by` names on the waitlist; not found when no subscriber there has that email. */
  private async idOf(
    tx: Pick<Repositories, 'subscribers'>,
    waitlist: Waitlist,
    by: SubscriberRef,
  ): Promise<Result<string>> {
    if ('id' in by) return ok(by.id);
    const email = checkEmail(by.email);
    if (!email.ok) return refuse(invalid(email.reason, 'email'));
    const id = await tx.subscribers.idByEmail(waitlist.id, email.normalized);
    return id ? ok(id) : refuse(notFound('subscriber with that email on waitlist', waitlist.id));
  }

  /** A subscriber of a waitlist of the scope's tenant, with that waitlist, both from one snapshot. */
  get(scope: Scope, waitlistId: string, by: SubscriberRef): Promise<Result<Found>> {
    return this.ctx.store.read((tx) => this.found(tx, scope, waitlistId, by));
  }

  /**
   * A subscriber as their page shows them: with whom they referred (docs/insights.md#the-cockpit),
   * the newest `REFERRED_SHOWN` and how many in all, from the same snapshot.
   */
  withReferred(
    scope: Scope,
    waitlistId: string,
    id: string,
  ): Promise<Result<Found & { referred: ListPage }>> {
    return this.ctx.store.read(async (tx) => {
      const found = await this.found(tx, scope, waitlistId, { id });
      if (!found.ok) return found;
      const { waitlist, subscriber } = found.value;
      const referred = await tx.subscribers.referredBy(
        waitlist.id,
        waitlist.settings,
        subscriber.id,
        REFERRED_SHOWN,
      );
      return ok({ ...found.value, referred });
    });
  }

  private async found(
    tx: Repositories,
    scope: Scope,
    waitlistId: string,
    by: SubscriberRef,
  ): Promise<Result<Found>> {
    const waitlist = own(scope, await tx.waitlists.get(waitlistId));
    if (!waitlist) return refuse(notFound('waitlist', waitlistId));
    const id = await this.idOf(tx, waitlist, by);
    if (!id.ok) return id;
    const subscriber = await tx.subscribers.get(waitlist.id, waitlist.settings, id.value);
    return subscriber ? ok({ waitlist, subscriber }) : refuse(notFound('subscriber', id.value));
  }

  /** The subscriber as the page before erasing shows it: admins only, and no attempt yet. */
  async toErase(who: Acting, waitlistId: string, id: string) {
    const denied = await adminOnly(this.ctx, who, 'Only admins can erase subscribers.');
    return denied ? refuse(denied) : this.get(who, waitlistId, { id });
  }

  /** A member's attempt, as the log keeps it: the waitlist only when it is the tenant's own. */
  private attempt(action: Attempt['action'], who: Acting, waitlistId: string) {
    return async (): Promise<Attempt> => {
      const waitlist = own(who, await this.ctx.store.reads.waitlists.get(waitlistId));
      return { action, details: { waitlist_id: waitlist?.id ?? null } };
    };
  }

  /**
   * Lets people in. `once`, from a form, is that form's one-time token: redeemed in the
   * admission's own write, so the same form posted again (a double click, a reload, a second
   * process behind a load balancer) lets nobody more in, and answers `repeated`.
   */
  admit(
    who: Acting,
    waitlistId: string,
    admission: Admission,
    once: string,
  ): Promise<Result<ListedSubscriber[] | 'repeated'>>;
  admit(who: Acting, waitlistId: string, admission: Admission): Promise<Result<ListedSubscriber[]>>;
  async admit(
    who: Acting,
    waitlistId: string,
    admission: Admission,
    once?: string,
  ): Promise<Result<ListedSubscriber[] | 'repeated'>> {
    const { store, clock } = this.ctx;
    const about = this.attempt('subscriber.admit_refused', who, waitlistId);
    const denied = await adminOnly(this.ctx, who, 'Only admins can let subscribers in.', about);
    if (denied) return refuse(denied);
    const waitlist = own(who, await store.reads.waitlists.get(waitlistId));
    if (!waitlist) return refuse(notFound('waitlist', waitlistId));
    // The API's schema and the command line's parser check this too; the dashboard's form is text.
    if ('count' in admission) {
      const { count } = admission;
      if (!Number.isInteger(count) || count < 1 || count > ADMISSION_MAX) {
        return refuse(invalid(`The count must be a whole number from 1 to ${ADMISSION_MAX}.`, 'count'));
      }
    }
    if (once !== undefined && !/^[A-Za-z0-9_-]{16,64}$/.test(once)) {
      return refuse(invalid('This form is out of date: check the number and submit it again.', 'count'));
    }
    const items = await store.write(async (tx): Promise<ListedSubscriber[] | 'repeated' | undefined> => {
      if (once !== undefined) {
        const use = { id: `admit-form:${once}`, expiresAt: clock.now() + FORM_TOKEN_KEPT_MS };
        if ((await tx.tokens.redeem([use])).length > 0) return 'repeated';
      }
      return admitIn(tx, clock, who, waitlist.id, admission);
    });
    return items ? ok(items) : refuse(notFound('waitlist', waitlistId));
  }

  /** Erases a subscriber; answers its id once the erasure has committed. */
  async erase(who: Acting, waitlistId: string, by: SubscriberRef): Promise<Result<string>> {
    const { store, clock } = this.ctx;
    const about = this.attempt('subscriber.erase_refused', who, waitlistId);
    const denied = await adminOnly(this.ctx, who, 'Only admins can erase subscribers.', about);
    if (denied) return refuse(denied);
    const waitlist = own(who, await store.reads.waitlists.get(waitlistId));
    if (!waitlist) return refuse(notFound('waitlist', waitlistId));
    const id = await this.idOf(store.reads, waitlist, by);
    if (!id.ok) return id;
    if (!(await store.write((tx) => eraseIn(tx, clock, who, waitlist.id, id.value)))) {
      return refuse(notFound('subscriber', id.value));
    }
    await this.ctx.erasureCleanup.erased();
    return id;
  }
}
