/**
 * The store: what the use cases in `app/` ask of storage, by aggregate, with no SQL in sight.
 * Two adapters: SQLite (`store/sqlite/`), one file for one process, and PostgreSQL
 * (`store/postgres/`), one database for any number of processes; no use case knows which. Both
 * serve the repositories below with the same statements (`store/statements/`, wired in
 * repositories.ts), each in its dialect where the engines differ.
 *
 * Three ways in, chosen by what the caller needs to be true:
 * - `reads`: one statement on committed data, for a question one read answers.
 * - `read(fn)`: every read of `fn` sees one committed state (a snapshot), for an answer built
 *   from several reads (a list page ranked by the boost it read).
 * - `write(fn)`: every read and write of `fn` in one transaction, durable before the promise
 *   settles; a thrown error undoes all of it.
 * and one for the hot path, `signUpFresh`, which an adapter may batch with other sign-ups.
 * Throttle counters are state too (docs/self-hosting.md#several-servers): `limiter` hands out a `Limiter` per throttle
 * (its contract in limiter.ts), kept wherever the adapter keeps them, so no use case knows where
 * they live.
 */
import type { Language, Plan, Scope } from '@waitlistkit/protocol';
import type { IdempotencyDecision } from '../domain/idempotency.js';
import type {
  ActivityEntry,
  ActivityFilter,
  Admission,
  ApiKey,
  KeyGrant,
  ListedSubscriber,
  ListPage,
  NewActivity,
  Operator,
  OperatorWithSecret,
  PageQuery,
  Role,
  Session,
  SignupInput,
  SignupResult,
  StatusView,
  Tenant,
  TokenUse,
  Waitlist,
  WebhookEndpoint,
} from '../domain/records.js';
import type { WaitlistSettings } from '../domain/settings.js';
import type { Rule } from '../domain/throttle.js';
import type { Limiter } from './limiter.js';
import type { Outbox } from './outbox.js';
import type { Reveals } from './reveals.js';
import type { ListImport } from './statements/import.js';
import type { Messages } from './statements/messages.js';
import type { Stats } from './stats.js';

export interface Tenants {
  insert(name: string, plan: Plan, now: number): Promise<Tenant>;
  get(id: string): Promise<Tenant | undefined>;
  /** False when there is no such tenant. */
  setPlan(id: string, plan: Plan): Promise<boolean>;
  count(): Promise<number>;
}

export interface Operators {
  insert(
    fields: { tenantId: string; email: string; emailNorm: string; role: Role; passwordHash: string },
    now: number,
  ): Promise<Operator>;
  get(id: string): Promise<Operator | undefined>;
  findByEmail(emailNorm: string): Promise<OperatorWithSecret | undefined>;
  /** Replaces the hash unless it changed since `before` was read. */
  replacePasswordHash(id: string, before: string, after: string): Promise<void>;
}

export interface Waitlists {
  insert(tenantId: string, name: string, settings: WaitlistSettings, now: number): Promise<Waitlist>;
  get(id: string): Promise<Waitlist | undefined>;
  list(tenantId: string): Promise<Waitlist[]>;
  /** Writes name, settings and archived; re-ranks the line when the boost changed. */
  save(
    before: Waitlist,
    after: { name: string; settings: WaitlistSettings; archived: boolean },
    now: number,
  ): Promise<Waitlist>;
}

/** The inputs of the repositories' inserts, named once for the interface and its adapters. */
export interface NewKey {
  tenantId: string;
  name: string;
  prefix: string;
  hash: string;
  scopes: readonly Scope[];
  createdBy: string;
}

export interface NewEndpoint {
  id: string;
  tenantId: string;
  url: string;
  secret: string;
  events: readonly string[];
  waitlistId: string | null;
  createdBy: string;
}

export interface Keys {
  insert(fields: NewKey, now: number): Promise<ApiKey>;
  get(id: string): Promise<ApiKey | undefined>;
  list(tenantId: string): Promise<ApiKey[]>;
  revoke(id: string, operatorId: string, now: number): Promise<void>;
  findByHash(hash: string): Promise<KeyGrant | undefined>;
  /** The key's state and its tenant's plan, read fresh. */
  grant(id: string): Promise<Pick<KeyGrant, 'state' | 'plan'> | undefined>;
  touch(id: string, now: number): Promise<void>;
}

export interface Subscribers {
  /**
   * Creates the subscriber or matches the one with the same normalised email, crediting a valid
   * referral code of the same waitlist. Writes nothing for a missing or archived waitlist.
   */
  signUp(input: SignupInput, nowUs: number): Promise<SignupResult>;
  /** A page of the line in position order, or of those admitted; optionally filtered by a literal substring. */
  list(waitlistId: string, settings: WaitlistSettings, query: PageQuery): Promise<ListPage>;
  get(waitlistId: string, settings: WaitlistSettings, id: string): Promise<ListedSubscriber | undefined>;
  /** These subscribers of the waitlist, in the order given, positions computed together; missing ids left out. */
  byIds(waitlistId: string, settings: WaitlistSettings, ids: readonly string[]): Promise<ListedSubscriber[]>;
  idByEmail(waitlistId: string, emailNorm: string): Promise<string | undefined>;
  /** The address of each one's referrer, by subscriber id, for those of these who have one (an export). */
  referrerEmails(waitlistId: string, ids: readonly string[]): Promise<Map<string, string>>;
  byStatusToken(token: string): Promise<StatusView | undefined>;
  /** Lets in the first `count` of the line, or the waiting ones among the ids; answers them in line order. */
  admit(
    waitlistId: string,
    settings: WaitlistSettings,
    admission: Admission,
    nowUs: number,
  ): Promise<ListedSubscriber[]>;
  /** Erases the subscriber and everything that names it; false when it is not on the waitlist. */
  erase(waitlistId: string, id: string): Promise<boolean>;
  /** How many are in the line, and how many were let in (erased ones are in neither). */
  counts(waitlistId: string): Promise<{ waiting: number; admitted: number }>;
  /** The `limit` with the most credited referrals, most first; on a tie, who joined first. */
  topReferrers(waitlistId: string, settings: WaitlistSettings, limit: number): Promise<ListedSubscriber[]>;
  /** Those credited to subscriber `id` still on the list: the newest `limit`, newest first, and how many in all. */
  referredBy(waitlistId: string, settings: WaitlistSettings, id: string, limit: number): Promise<ListPage>;
}

/** A confirmation link's subscriber, as its page shows it (docs/subscribers.md#email-confirmation). */
export interface ConfirmationView {
  subscriberId: string;
  waitlistName: string;
  confirmed: boolean;
  /** The status page's token, when the waitlist has referrals on. */
  statusToken: string | undefined;
  /** The language the page speaks to them (domain/language-of.ts). */
  lang: Language;
}

/** What the confirmation mail is made of, read when its turn comes. */
export interface ConfirmationMail {
  email: string;
  token: string;
  waitlistName: string;
  /** Already confirmed, or the waitlist no longer confirms: the mail is not needed any more. */
  needed: boolean;
  lang: Language;
}

export interface Confirmations {
  /** The subscriber of a live waitlist holding this token. */
  byToken(token: string): Promise<ConfirmationView | undefined>;
  /**
   * Confirms once: credits the deferred referral and records `subscriber.confirmed`. A second
   * confirmation changes nothing; undefined for an unknown token or an archived waitlist.
   */
  confirm(token: string, nowUs: number): Promise<{ subscriberId: string; first: boolean } | undefined>;
  mail(subscriberId: string): Promise<ConfirmationMail | undefined>;
}

export interface Activity {
  append(entry: NewActivity, now: number): Promise<void>;
  /** Newest first. */
  list(tenantId: string, filter?: ActivityFilter): Promise<ActivityEntry[]>;
}

export interface Sessions {
  insert(session: {
    idHash: string;
    operatorId: string;
    csrf: string;
    createdAt: number;
    expiresAt: number;
  }): Promise<void>;
  /** The live session with this hash and its operator, read fresh. */
  find(idHash: string, now: number): Promise<Session | undefined>;
  delete(idHash: string): Promise<void>;
  deleteExpired(now: number): Promise<void>;
}

export interface UsedTokens {
  /** The ids among `ids` already redeemed. */
  used(ids: readonly string[]): Promise<Set<string>>;
  /** Records the tokens as redeemed; resolves to the ids someone else redeemed first. */
  redeem(tokens: readonly TokenUse[]): Promise<string[]>;
  forgetExpired(now: number): Promise<void>;
}

/**
 * Answers kept under (API key, Idempotency-Key), docs/protocol.md#idempotency-key. A kept answer may name
 * subscribers (domain/kept-answers.ts): the store indexes whom it names as it keeps it, and
 * `Subscribers.erase` takes an erased person out of every answer naming them, found through
 * that index, the answers themselves staying.
 */
export interface IdempotencyRecords {
  /** Decides on a request and, when it is to run, marks it running: atomic within the write. */
  claim(keyId: string, idemKey: string, requestHash: string, now: number): Promise<IdempotencyDecision>;
  /**
   * Keeps the answer and indexes whom it names. Someone it names who was erased meanwhile (after
   * the request's write, before this one) is left out of it here, as the erasure would have.
   */
  complete(keyId: string, idemKey: string, answer: string): Promise<void>;
  /** Forgets a running request that ended without an answer to keep. */
  release(keyId: string, idemKey: string): Promise<void>;
  forgetExpired(now: number): Promise<void>;
}

export interface WebhookEndpoints {
  /** Adds the endpoint, unless its tenant has `most` live ones already: then undefined. */
  insert(fields: NewEndpoint, now: number, most: number): Promise<WebhookEndpoint | undefined>;
  get(id: string): Promise<WebhookEndpoint | undefined>;
  /** The live endpoints of these tenants. */
  live(tenantIds: readonly string[]): Promise<WebhookEndpoint[]>;
  /** Deletes the endpoint; its pending deliveries fail, its past ones stay readable. */
  delete(id: string, now: number): Promise<void>;
}

export type FreshSignupInput = Omit<SignupInput, 'referralCode'> & { tokens?: readonly TokenUse[] };
export type FreshSignupResult = SignupResult | { outcome: 'tokens_taken'; taken: string[] };

/** Server-wide values: the token secret, the demo's ids. */
export interface Meta {
  get(key: string): Promise<string | undefined>;
  /** Stores `value` unless the key exists; resolves to the stored value either way. */
  putOnce(key: string, value: string): Promise<string>;
}

export interface Repositories {
  tenants: Tenants;
  operators: Operators;
  waitlists: Waitlists;
  keys: Keys;
  subscribers: Subscribers;
  confirmations: Confirmations;
  activity: Activity;
  sessions: Sessions;
  tokens: UsedTokens;
  idempotency: IdempotencyRecords;
  webhooks: WebhookEndpoints;
  outbox: Outbox;
  messages: Messages;
  reveals: Reveals;
  meta: Meta;
  stats: Stats;
}

export interface Store {
  readonly reads: Repositories;
  read<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  write<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /**
   * A fresh public sign-up without a referral code: `Subscribers.signUp`, batched when it can be,
   * redeeming its gate tokens in the same write. When one was redeemed first (by a concurrent
   * request, or earlier in the batch), nobody is signed up: `tokens_taken` names those.
   */
  signUpFresh(input: FreshSignupInput): Promise<FreshSignupResult>;
  /** An import of rows into the waitlist, staged apart and written in one transaction (statements/import.ts). */
  openImport(waitlistId: string): Promise<ListImport>;
  /**
   * The throttle named `name` (`ip`, `email`, ...), applying `rule`. One name is one state: two
   * calls with a name, in one process or several on one database, count in the same state, so a
   * name belongs to one rule.
   */
  limiter<S>(name: string, rule: Rule<S>): Limiter<S>;
  /**
   * One attempt, after erasures, at leaving no old copy of erased data in the storage's files
   * (journals, dead row versions), as far as the engine allows. True when it finished; false
   * when it could not yet: a reader holds data from before `since` (ms, when the newest of those
   * erasures was asked for), so it is to be tried again later. Never called on a request's
   * path: app/erasure-cleanup.ts runs it in the background, one attempt at a time.
   */
  scrub(since: number): Promise<boolean>;
  /**
   * How long erasures may wait for the next scrub after one began, so that several share it:
   * what a scrub costs decides (a SQLite checkpoint, a PostgreSQL VACUUM of whole indexes).
   */
  readonly scrubSpacingMs: number;
  close(): Promise<void>;
}
