/**
 * What operators do: tenants, plans, operators, waitlists, API keys, the activity log. The
 * command line and the dashboard both call this, so a rule (admins only, plans, the log) holds
 * whichever door is used. Every write is one store transaction: atomic, and ordered with the
 * server's sign-ups.
 */
import {
  ADMISSION_MAX,
  API_KEY_LISTED_LENGTH,
  checkEmail,
  generateApiKey,
  KEY_PRESETS,
  type KeyPreset,
  type Plan,
  planAllowsApi,
} from '@waitlistkit/protocol';
import type { Clock } from '../adapters/clock.js';
import { createLogger } from '../adapters/logger.js';
import {
  generatePassword,
  hashPassword,
  needsRehash,
  PASSWORD_MIN_LENGTH,
  verifyPassword,
} from '../adapters/passwords.js';
import { sha256Hex } from '../domain/crypto.js';
import { checkWebhookUrl, resolvedVerdict } from '../domain/destinations.js';
import { conflict, featureNotAllowed, forbidden, invalid, notFound } from '../domain/errors.js';
import { ENDPOINTS_PER_TENANT } from '../domain/fair-share.js';
import { newId } from '../domain/ids.js';
import type {
  ActivityEntry,
  ActivityFilter,
  Admission,
  ApiKey,
  ListedSubscriber,
  Operator,
  Role,
  Tenant,
  Waitlist,
  WebhookEndpoint,
} from '../domain/records.js';
import { applySettings, DEFAULT_SETTINGS, type SettingsPatch } from '../domain/settings.js';
import { newWebhookSecret } from '../domain/webhook-signature.js';
import type { Store } from '../store/store.js';
import { ErasureCleanup } from './erasure-cleanup.js';
import { admitIn, eraseIn } from './lifecycle.js';

/** Event types an endpoint can ask for (contract §14). */
/** How long a form's one-time token is remembered once used: far longer than any double click. */
const FORM_TOKEN_KEPT_MS = 24 * 60 * 60_000;

const WEBHOOK_EVENTS: readonly string[] = [
  'subscriber.created',
  'subscriber.confirmed',
  'subscriber.admitted',
  'subscriber.deleted',
  'referral.credited',
];

// A real scrypt hash of a random password nobody knows: verifying against it costs what a real check costs.
const UNKNOWN_OPERATOR_HASH =
  'scrypt$131072$8$1$Q1z6kxBLL9k1j3bAa4Zz8g$c0eQ9uYp5kz2m8N4l1W9c0v7Jv3hQ6bK2x4R7tY1u0E';

function cleanName(name: string, what: string): string {
  const value = name.trim();
  if (value === '' || value.length > 200) throw invalid(`The ${what} name must be 1 to 200 characters.`);
  return value;
}

/** Where webhooks may go: private destinations only when the operator allows them (contract §14). */
export interface WebhookPolicy {
  allowPrivate: boolean;
  resolve: (host: string) => Promise<string[]>;
}

export class Operators {
  /**
   * `erasureCleanup`: a server passes its queue; without one (a command of the command line,
   * which exits when done), an erasure waits for its cleanup, saying on stderr when it is late.
   */
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly webhookPolicy: WebhookPolicy = { allowPrivate: false, resolve: async () => [] },
    private readonly erasureCleanup = new ErasureCleanup(
      store,
      createLogger((line) => process.stderr.write(line), 'quiet'),
      clock,
      true,
    ),
  ) {}

  private async tenant(id: string): Promise<Tenant> {
    const tenant = await this.store.reads.tenants.get(id);
    if (!tenant) throw notFound('tenant', id);
    return tenant;
  }

  async operator(id: string): Promise<Operator> {
    const operator = await this.store.reads.operators.get(id);
    if (!operator) throw notFound('operator', id);
    return operator;
  }

  createTenant(name: string, plan: Plan): Promise<Tenant> {
    const clean = cleanName(name, 'tenant');
    return this.store.write((tx) => tx.tenants.insert(clean, plan, this.clock.now()));
  }

  async setPlan(tenantId: string, plan: Plan): Promise<Tenant> {
    return this.store.write(async (tx) => {
      if (!(await tx.tenants.setPlan(tenantId, plan))) throw notFound('tenant', tenantId);
      return (await tx.tenants.get(tenantId)) as Tenant;
    });
  }

  async createOperator(fields: {
    tenantId: string;
    email: string;
    role: Role;
    password?: string | undefined;
  }): Promise<{ operator: Operator; password?: string }> {
    await this.tenant(fields.tenantId);
    const email = checkEmail(fields.email);
    if (!email.ok) throw invalid(email.reason, 'email');
    if (fields.password !== undefined && fields.password.length < PASSWORD_MIN_LENGTH) {
      throw invalid(`The password must be at least ${PASSWORD_MIN_LENGTH} characters.`, 'password');
    }
    const password = fields.password ?? generatePassword();
    const passwordHash = await hashPassword(password);
    const operator = await this.store.write(async (tx) => {
      if (await tx.operators.findByEmail(email.normalized)) {
        throw conflict(`An operator with the email ${email.email} exists already.`, 'email');
      }
      return tx.operators.insert(
        {
          tenantId: fields.tenantId,
          email: email.email,
          emailNorm: email.normalized,
          role: fields.role,
          passwordHash,
        },
        this.clock.now(),
      );
    });
    return fields.password === undefined ? { operator, password } : { operator };
  }

  async createWaitlist(tenantId: string, name: string, patch: SettingsPatch): Promise<Waitlist> {
    await this.tenant(tenantId);
    const clean = cleanName(name, 'waitlist');
    const settings = applySettings({ ...DEFAULT_SETTINGS }, patch);
    return this.store.write((tx) => tx.waitlists.insert(tenantId, clean, settings, this.clock.now()));
  }

  listWaitlists(tenantId: string): Promise<Waitlist[]> {
    return this.store.reads.waitlists.list(tenantId);
  }

  async plan(tenantId: string): Promise<Plan> {
    return (await this.tenant(tenantId)).plan;
  }

  /**
   * The operator with this email and password, or undefined; as slow for unknown emails as for
   * known ones. A hash made at an older cost is replaced by one at today's, now that the password
   * is known to be right.
   */
  async signIn(email: string, password: string): Promise<Operator | undefined> {
    const check = checkEmail(email);
    const found = check.ok ? await this.store.reads.operators.findByEmail(check.normalized) : undefined;
    const valid = await verifyPassword(password, found?.password_hash ?? UNKNOWN_OPERATOR_HASH);
    if (!found || !valid) return undefined;
    const { password_hash: stored, ...operator } = found;
    if (needsRehash(stored)) {
      const fresh = await hashPassword(password);
      await this.store.write((tx) => tx.operators.replacePasswordHash(operator.id, stored, fresh));
    }
    return operator;
  }

  async waitlist(id: string): Promise<Waitlist> {
    const waitlist = await this.store.reads.waitlists.get(id);
    if (!waitlist) throw notFound('waitlist', id);
    return waitlist;
  }

  /** Reads and writes in one transaction, so two concurrent updates cannot lose each other's settings. */
  updateWaitlist(
    id: string,
    change: { name?: string | undefined; patch?: SettingsPatch; archive?: boolean },
  ) {
    const name = change.name === undefined ? undefined : cleanName(change.name, 'waitlist');
    return this.store.write(async (tx) => {
      const before = await tx.waitlists.get(id);
      if (!before) throw notFound('waitlist', id);
      return tx.waitlists.save(
        before,
        {
          name: name ?? before.name,
          settings: applySettings(before.settings, change.patch ?? {}),
          archived: change.archive === true || before.archived,
        },
        this.clock.now(),
      );
    });
  }

  /**
   * Creates a key as `operatorId`. Members are refused (`forbidden`), tenants without API access
   * too (`feature_not_allowed`); refusals are logged with the operator as well as successes.
   */
  async createKey(
    operatorId: string,
    name: string,
    preset: KeyPreset,
  ): Promise<{ key: ApiKey; value: string }> {
    const operator = await this.operator(operatorId);
    const clean = cleanName(name, 'key');
    const value = generateApiKey();
    const result = await this.store.write(async (tx) => {
      const tenant = (await tx.tenants.get(operator.tenant_id)) as Tenant;
      const actor = { type: 'operator' as const, id: operator.id, name: operator.email };
      const refusal =
        operator.role !== 'admin'
          ? forbidden('Only admins can create API keys.')
          : !planAllowsApi(tenant.plan)
            ? featureNotAllowed(`API keys need the Pro or Team plan; this tenant is on ${tenant.plan}.`)
            : undefined;
      const now = this.clock.now();
      if (refusal) {
        await tx.activity.append(
          {
            tenantId: tenant.id,
            actor,
            action: 'key.create_refused',
            details: { name: clean, reason: refusal.code },
          },
          now,
        );
        // Resolved, not thrown: throwing would roll the job back, log entry included.
        return { refusal };
      }
      const key = await tx.keys.insert(
        {
          tenantId: tenant.id,
          name: clean,
          prefix: value.slice(0, API_KEY_LISTED_LENGTH),
          hash: sha256Hex(value),
          scopes: KEY_PRESETS[preset],
          createdBy: operator.id,
        },
        now,
      );
      await tx.activity.append(
        {
          tenantId: tenant.id,
          actor,
          action: 'key.created',
          subjectId: key.id,
          details: { name: key.name, prefix: key.prefix, scopes: key.scopes },
        },
        now,
      );
      return { key, value };
    });
    if ('refusal' in result) throw result.refusal;
    return result;
  }

  /** Revokes a key of the operator's tenant; immediate for every request that reads it afterwards. */
  async revokeKey(operatorId: string, keyId: string): Promise<ApiKey> {
    const operator = await this.operator(operatorId);
    const result = await this.store.write(async (tx) => {
      const key = await tx.keys.get(keyId);
      if (!key || key.tenant_id !== operator.tenant_id) throw notFound('key', keyId);
      const actor = { type: 'operator' as const, id: operator.id, name: operator.email };
      const now = this.clock.now();
      if (operator.role !== 'admin') {
        await tx.activity.append(
          {
            tenantId: key.tenant_id,
            actor,
            action: 'key.revoke_refused',
            subjectId: key.id,
            details: { name: key.name, reason: 'forbidden' },
          },
          now,
        );
        return { refusal: forbidden('Only admins can revoke API keys.') };
      }
      if (key.state === 'active') {
        await tx.keys.revoke(key.id, operator.id, now);
        await tx.activity.append(
          {
            tenantId: key.tenant_id,
            actor,
            action: 'key.revoked',
            subjectId: key.id,
            details: { name: key.name, prefix: key.prefix },
          },
          now,
        );
      }
      return (await tx.keys.get(key.id)) as ApiKey;
    });
    if ('refusal' in result) throw result.refusal;
    return result;
  }

  /** A key of the operator's own tenant, as the page before revoking shows it: admins only. */
  async keyToRevoke(operator: Operator, keyId: string): Promise<ApiKey> {
    const key = await this.tenantKey(operator, keyId);
    if (!key) throw notFound('key', keyId);
    if (operator.role !== 'admin') throw forbidden('Only admins can revoke API keys.');
    return key;
  }

  /** A key of the operator's own tenant, or undefined: another tenant's key does not exist for them. */
  async tenantKey(operator: Operator, keyId: string): Promise<ApiKey | undefined> {
    const key = await this.store.reads.keys.get(keyId);
    return key?.tenant_id === operator.tenant_id ? key : undefined;
  }

  /** A waitlist of the operator's own tenant; another tenant's is not found, like a missing one. */
  async tenantWaitlist(operator: Operator, id: string): Promise<Waitlist> {
    const waitlist = await this.store.reads.waitlists.get(id);
    if (!waitlist || waitlist.tenant_id !== operator.tenant_id) throw notFound('waitlist', id);
    return waitlist;
  }

  async listKeys(tenantId: string): Promise<ApiKey[]> {
    await this.tenant(tenantId);
    return this.store.reads.keys.list(tenantId);
  }

  async activity(tenantId: string, filter: ActivityFilter = {}) {
    await this.tenant(tenantId);
    return this.store.reads.activity.list(tenantId, filter);
  }

  /**
   * Every entry of the tenant's log, newest first, a page at a time: the log has no size limit.
   * Paged by id, so entries appended meanwhile are not mixed in.
   */
  async activityPages(tenantId: string, pageSize = 1000): Promise<AsyncIterable<ActivityEntry[]>> {
    await this.tenant(tenantId);
    const activity = this.store.reads.activity;
    return (async function* () {
      const filter: ActivityFilter = { limit: pageSize };
      for (;;) {
        const page = await activity.list(tenantId, filter);
        if (page.length > 0) yield page;
        const last = page.at(-1);
        if (page.length < pageSize || !last) return;
        filter.beforeId = last.id;
      }
    })();
  }

  // ------------------------------------------------------------------ subscribers (contract §12)

  /** The subscriber's id from `--id` or `--email`; not found when neither names one on the waitlist. */
  private async subscriberId(waitlist: Waitlist, by: { id: string } | { email: string }): Promise<string> {
    if ('id' in by) return by.id;
    const email = checkEmail(by.email);
    if (!email.ok) throw invalid(email.reason, 'email');
    const id = await this.store.reads.subscribers.idByEmail(waitlist.id, email.normalized);
    if (!id) throw notFound('subscriber with that email on waitlist', waitlist.id);
    return id;
  }

  /** Everything held about a subscriber, for an access request. */
  async subscriber(waitlistId: string, by: { id: string } | { email: string }): Promise<ListedSubscriber> {
    const waitlist = await this.waitlist(waitlistId);
    const id = await this.subscriberId(waitlist, by);
    const found = await this.store.read((tx) => tx.subscribers.get(waitlist.id, waitlist.settings, id));
    if (!found) throw notFound('subscriber', id);
    return found;
  }

  /**
   * A subscriber of a waitlist of the operator's own tenant, with that waitlist; any other is not
   * found, like a missing one. Both come from one snapshot.
   */
  async tenantSubscriber(
    operator: Operator,
    waitlistId: string,
    id: string,
  ): Promise<{ waitlist: Waitlist; subscriber: ListedSubscriber }> {
    const found = await this.store.read(async (tx) => {
      const waitlist = await tx.waitlists.get(waitlistId);
      if (!waitlist || waitlist.tenant_id !== operator.tenant_id) return undefined;
      const subscriber = await tx.subscribers.get(waitlist.id, waitlist.settings, id);
      return subscriber && { waitlist, subscriber };
    });
    if (!found) throw notFound('subscriber', id);
    return found;
  }

  /** The subscriber as the page before erasing shows it: admins only. */
  async subscriberToErase(operator: Operator, waitlistId: string, id: string) {
    const found = await this.tenantSubscriber(operator, waitlistId, id);
    if (operator.role !== 'admin') throw forbidden('Only admins can erase subscribers.');
    return found;
  }

  /**
   * A write about subscribers, as an operator: admins only, on a waitlist of their own tenant. A
   * member's attempt (only a forged form or a script can make one) is refused and logged, as
   * refused key actions are; the waitlist is named only when it is the tenant's own.
   */
  private async asAdmin(
    operatorId: string,
    waitlistId: string,
    what: string,
    refusedAs: 'subscriber.admit_refused' | 'subscriber.erase_refused',
  ) {
    const operator = await this.operator(operatorId);
    const who = {
      tenantId: operator.tenant_id,
      actor: { type: 'operator' as const, id: operator.id, name: operator.email },
    };
    if (operator.role !== 'admin') {
      const own = await this.store.reads.waitlists.get(waitlistId);
      const details = {
        waitlist_id: own?.tenant_id === operator.tenant_id ? own.id : null,
        reason: 'forbidden',
      };
      await this.store.write((tx) =>
        tx.activity.append({ ...who, action: refusedAs, details }, this.clock.now()),
      );
      throw forbidden(`Only admins can ${what}.`);
    }
    const waitlist = await this.tenantWaitlist(operator, waitlistId);
    return { operator, waitlist, who };
  }

  /**
   * Lets people in. `once`, from a form, is that form's one-time token: redeemed in the
   * admission's own write, so the same form posted again (a double click, a reload, a second
   * process behind a load balancer) lets nobody more in, and answers `repeated`.
   */
  async admit(
    operatorId: string,
    waitlistId: string,
    admission: Admission,
    once: string,
  ): Promise<ListedSubscriber[] | 'repeated'>;
  async admit(operatorId: string, waitlistId: string, admission: Admission): Promise<ListedSubscriber[]>;
  async admit(
    operatorId: string,
    waitlistId: string,
    admission: Admission,
    once?: string,
  ): Promise<ListedSubscriber[] | 'repeated'> {
    const { waitlist, who } = await this.asAdmin(
      operatorId,
      waitlistId,
      'let subscribers in',
      'subscriber.admit_refused',
    );
    // The API's schema and the command line's parser check this too; the dashboard's form is text.
    if ('count' in admission) {
      const { count } = admission;
      if (!Number.isInteger(count) || count < 1 || count > ADMISSION_MAX) {
        throw invalid(`The count must be a whole number from 1 to ${ADMISSION_MAX}.`, 'count');
      }
    }
    if (once !== undefined && !/^[A-Za-z0-9_-]{16,64}$/.test(once)) {
      throw invalid('This form is out of date: check the number and submit it again.', 'count');
    }
    const items = await this.store.write(async (tx) => {
      if (once !== undefined) {
        const use = { id: `admit-form:${once}`, expiresAt: this.clock.now() + FORM_TOKEN_KEPT_MS };
        if ((await tx.tokens.redeem([use])).length > 0) return 'repeated' as const;
      }
      return admitIn(tx, this.clock, who, waitlist.id, admission);
    });
    if (!items) throw notFound('waitlist', waitlistId);
    return items;
  }

  /** Erases a subscriber; resolves to its id. */
  async erase(
    operatorId: string,
    waitlistId: string,
    by: { id: string } | { email: string },
  ): Promise<string> {
    const { waitlist, who } = await this.asAdmin(
      operatorId,
      waitlistId,
      'erase subscribers',
      'subscriber.erase_refused',
    );
    const id = await this.subscriberId(waitlist, by);
    if (!(await this.store.write((tx) => eraseIn(tx, this.clock, who, waitlist.id, id)))) {
      throw notFound('subscriber', id);
    }
    await this.erasureCleanup.erased();
    return id;
  }

  // ------------------------------------------------------------------ webhooks (contract §14)

  /**
   * Creates an endpoint as an admin, up to ENDPOINTS_PER_TENANT live ones (domain/fair-share.ts);
   * its secret is in the answer, and nowhere else ever again.
   */
  async createWebhook(
    operatorId: string,
    fields: { url: string; events: readonly string[]; waitlistId: string | undefined },
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const operator = await this.operator(operatorId);
    if (operator.role !== 'admin') throw forbidden('Only admins can create webhook endpoints.');
    const { allowPrivate, resolve } = this.webhookPolicy;
    const checked = checkWebhookUrl(fields.url, allowPrivate);
    if (!checked.ok) throw invalid(checked.reason, 'url');
    const refused = resolvedVerdict(await resolve(checked.url.hostname), allowPrivate);
    if (refused) throw invalid(refused, 'url');
    for (const type of fields.events) {
      if (!WEBHOOK_EVENTS.includes(type))
        throw invalid(
          `${JSON.stringify(type)} is not an event type: ${WEBHOOK_EVENTS.join(', ')}.`,
          'events',
        );
    }
    if (fields.waitlistId !== undefined) await this.tenantWaitlist(operator, fields.waitlistId);
    const secret = newWebhookSecret();
    const endpoint = await this.store.write(async (tx) => {
      const created = await tx.webhooks.insert(
        {
          id: newId('webhook'),
          tenantId: operator.tenant_id,
          url: checked.url.href,
          secret,
          events: [...new Set(fields.events)],
          waitlistId: fields.waitlistId ?? null,
          createdBy: operator.id,
        },
        this.clock.now(),
        ENDPOINTS_PER_TENANT,
      );
      if (!created) {
        throw conflict(
          `Your organisation has ${ENDPOINTS_PER_TENANT} webhook endpoints, the most it may have: delete one before adding another.`,
        );
      }
      await tx.activity.append(
        {
          tenantId: operator.tenant_id,
          actor: { type: 'operator', id: operator.id, name: operator.email },
          action: 'webhook.created',
          subjectId: created.id,
          details: { url: created.url, events: created.events, waitlist_id: created.waitlist_id },
        },
        this.clock.now(),
      );
      return created;
    });
    return { endpoint, secret };
  }

  async listWebhooks(tenantId: string): Promise<WebhookEndpoint[]> {
    await this.tenant(tenantId);
    return this.store.reads.webhooks.live([tenantId]);
  }

  /**
   * An endpoint of the operator's own tenant, deleted ones too (their past deliveries stay
   * readable); another tenant's is not found, like a missing one. Members may look.
   */
  async tenantWebhook(operator: Operator, webhookId: string): Promise<WebhookEndpoint> {
    const endpoint = await this.store.reads.webhooks.get(webhookId);
    if (!endpoint || endpoint.tenant_id !== operator.tenant_id) throw notFound('webhook endpoint', webhookId);
    return endpoint;
  }

  /** An endpoint of the operator's tenant, as an admin. */
  private async adminWebhook(operatorId: string, webhookId: string) {
    const operator = await this.operator(operatorId);
    if (operator.role !== 'admin') throw forbidden('Only admins can change webhook endpoints.');
    const endpoint = await this.tenantWebhook(operator, webhookId);
    const actor = { type: 'operator' as const, id: operator.id, name: operator.email };
    return { operator, endpoint, actor };
  }

  async deleteWebhook(operatorId: string, webhookId: string): Promise<WebhookEndpoint> {
    const { operator, endpoint, actor } = await this.adminWebhook(operatorId, webhookId);
    return this.store.write(async (tx) => {
      await tx.webhooks.delete(endpoint.id, this.clock.now());
      await tx.activity.append(
        {
          tenantId: operator.tenant_id,
          actor,
          action: 'webhook.deleted',
          subjectId: endpoint.id,
          details: { url: endpoint.url },
        },
        this.clock.now(),
      );
      return (await tx.webhooks.get(endpoint.id)) as WebhookEndpoint;
    });
  }

  async deliveries(webhookId: string, state: string | undefined) {
    const endpoint = await this.store.reads.webhooks.get(webhookId);
    if (!endpoint) throw notFound('webhook endpoint', webhookId);
    return this.store.reads.outbox.deliveries(endpoint.id, state);
  }

  /** Sends a delivery again, as an admin of its endpoint's tenant, unless the endpoint was deleted. */
  async resend(operatorId: string, deliveryId: string) {
    const endpointId = await this.store.reads.outbox.endpointOf(deliveryId);
    if (!endpointId) throw notFound('delivery', deliveryId);
    const { operator, actor } = await this.adminWebhook(operatorId, endpointId);
    await this.store.write(async (tx) => {
      // The worker sends whatever is pending, to the address the endpoint had: checked in the
      // write, so a deletion committed just before is seen.
      if ((await tx.webhooks.get(endpointId))?.state !== 'active') {
        throw conflict('The endpoint was deleted; nothing more is sent to it.');
      }
      await tx.outbox.resend(deliveryId, this.clock.now());
      await tx.activity.append(
        {
          tenantId: operator.tenant_id,
          actor,
          action: 'webhook.resent',
          subjectId: deliveryId,
          details: { webhook_id: endpointId },
        },
        this.clock.now(),
      );
    });
    const [delivery] = (await this.store.reads.outbox.deliveries(endpointId)).filter(
      (d) => d.id === deliveryId,
    );
    return delivery;
  }
}
