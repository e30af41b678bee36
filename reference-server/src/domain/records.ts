/**
 * The records the service keeps, as every floor sees them: the use cases take and return these,
 * the store adapters read and write them, the doors show them. No storage detail in here.
 */
import type { FieldValues, Language, Plan, Scope, Source, SubscriberStatus } from '@waitlistkit/protocol';
import type { WaitlistSettings } from './settings.js';
import type { SignupExtras } from './signup-extras.js';

export interface Tenant {
  id: string;
  name: string;
  plan: Plan;
  created_at: string;
}

export type Role = 'admin' | 'member';

export interface Operator {
  id: string;
  tenant_id: string;
  email: string;
  role: Role;
  created_at: string;
}

export interface OperatorWithSecret extends Operator {
  password_hash: string;
}

export interface Waitlist {
  id: string;
  tenant_id: string;
  name: string;
  archived: boolean;
  settings: WaitlistSettings;
  created_at: string;
  updated_at: string;
  /** Counts the saves of the waitlist: a decision made on one version is checked against it. */
  version: number;
}

export type KeyState = 'active' | 'revoked';

export interface ApiKey {
  id: string;
  tenant_id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  state: KeyState;
  created_at: string;
  created_by: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** A key as a request sees it: with its hash and its tenant's plan, read fresh. */
export interface KeyGrant {
  id: string;
  tenant_id: string;
  name: string;
  hash: string;
  scopes: Scope[];
  state: KeyState;
  plan: Plan;
}

export type ActivityAction =
  | 'key.created'
  | 'key.revoked'
  | 'key.create_refused'
  | 'key.revoke_refused'
  | 'subscriber.created'
  | 'subscriber.matched'
  | 'subscriber.admitted'
  | 'subscriber.admit_refused'
  | 'subscriber.erased'
  | 'subscriber.erase_refused'
  | 'subscriber.imported'
  | 'subscriber.import_refused'
  | 'webhook.created'
  | 'webhook.deleted'
  | 'webhook.resent'
  | 'webhook.create_refused'
  | 'webhook.delete_refused'
  | 'webhook.resend_refused'
  | 'message.updated'
  | 'message.update_refused'
  | 'message.test_sent';

export type Actor = { type: 'operator' | 'key'; id: string; name: string };

export interface ActivityEntry {
  id: number;
  at: string;
  actor: Actor;
  action: ActivityAction;
  subject_id: string | null;
  details: Record<string, unknown>;
}

/** Appended by ids and names only: never a key value, status token or email. */
export interface NewActivity {
  tenantId: string;
  actor: Actor;
  action: ActivityAction;
  subjectId?: string;
  details?: object;
}

export interface ActivityFilter {
  actorType?: 'operator' | 'key';
  actionPrefix?: string;
  beforeId?: number;
  limit?: number;
}

export interface Session {
  operator: Operator;
  csrf: string;
  expires_at: number;
}

/** What a sign-up answers with: the subscriber's public handles. */
export interface SignupRow {
  id: string;
  referral_code: string;
  status_token: string;
}

export type SignupResult =
  | { outcome: 'created' | 'matched'; subscriber: SignupRow; credited: string | undefined }
  /** The waitlist is missing or archived, or has another version than the one asked for. */
  | { outcome: 'waitlist_gone' };

export interface SignupInput {
  waitlistId: string;
  /** Writes nothing (`waitlist_gone`) unless the waitlist still has this version; absent: any. */
  waitlistVersion?: number;
  email: string;
  emailNorm: string;
  referralCode: string | undefined;
  /** The waitlist confirms emails (docs/subscribers.md#email-confirmation): a confirm token, a mail, credit deferred. */
  confirm: boolean;
  /** Answers, source, variant key and language, kept by a fresh sign-up (domain/signup-extras.ts); none when absent. */
  extras?: SignupExtras;
}

/** A subscriber as every answer shows it (docs/subscribers.md#lifecycle): `position` is null once admitted. */
export interface ListedSubscriber {
  id: string;
  email: string;
  joined_at: string;
  position: number | null;
  referral_code: string;
  referral_count: number;
  status: SubscriberStatus;
  admitted_at: string | null;
  confirmed: boolean;
  /** Answers to the fields defined now (docs/subscribers.md#fields). */
  fields: FieldValues;
  /** Where the sign-up came from, and the channel derived from it (docs/subscribers.md#attribution). */
  source: Source;
  channel: string;
  /** Whether they stopped the welcome and referral mail (docs/messages.md#unsubscribe). */
  unsubscribed: boolean;
  /** The language recorded at the first sign-up, null when none (docs/languages.md#what-a-sign-up-records). */
  lang: Language | null;
}

/** Who to let in: the first `count` of the line, or exactly these ids. */
export type Admission = { count: number } | { subscriberIds: string[] };

export interface ListPage {
  items: ListedSubscriber[];
  total: number;
}

export interface PageQuery {
  page: number;
  limit: number;
  q: string;
  status: SubscriberStatus;
  /** Only this channel (docs/subscribers.md#attribution); '' or absent for all. */
  channel?: string;
}

export interface StatusView {
  waitlistId: string;
  waitlistName: string;
  archived: boolean;
  settings: WaitlistSettings;
  referralCode: string;
  referralCount: number;
  admitted: boolean;
  /** False while the address awaits confirmation (docs/subscribers.md#email-confirmation). */
  confirmed: boolean;
  /** Place in line; null once admitted. */
  position: number | null;
  /** Subscribers waiting. */
  total: number;
  /** The language the page speaks to them (domain/language-of.ts). */
  lang: Language;
}

/** Where a tenant's events are sent (docs/webhooks.md#endpoints); its secret is never part of it. */
export interface WebhookEndpoint {
  id: string;
  tenant_id: string;
  url: string;
  /** Event types it wants; empty for every type. */
  events: string[];
  /** The one waitlist it wants events of, or null for all of the tenant's. */
  waitlist_id: string | null;
  state: 'active' | 'deleted';
  created_at: string;
  deleted_at: string | null;
}

/** A Challenge token or PoW nonce to redeem once, remembered until it expires. */
export interface TokenUse {
  id: string;
  expiresAt: number;
}
