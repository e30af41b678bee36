/**
 * API keys of a tenant: listed by anyone of it, created and revoked by admins, on a plan with API
 * access. A key's value is answered once, at creation; the store keeps its hash. Refusals are
 * logged with the operator as well as successes (docs/command-line.md#commands).
 */
import {
  API_KEY_LISTED_LENGTH,
  generateApiKey,
  KEY_PRESETS,
  type KeyPreset,
  type Plan,
  planAllowsApi,
} from '@waitlistkit/protocol';
import { sha256Hex } from '../domain/crypto.js';
import type { ApiKey } from '../domain/records.js';
import { type Acting, type Attempt, adminOnly, type Base, own, refusalEntry, type Scope } from './guard.js';
import { cleanName } from './names.js';
import { featureNotAllowed, notFound, ok, type Result, refuse } from './refusal.js';

export class Keys {
  constructor(private readonly ctx: Base) {}

  /** The tenant's keys, and its plan, which says whether they work. */
  list(scope: Scope): Promise<Result<{ plan: Plan; keys: ApiKey[] }>> {
    return this.ctx.store.read(async (tx) => {
      const tenant = await tx.tenants.get(scope.tenantId);
      if (!tenant) return refuse(notFound('tenant', scope.tenantId));
      return ok({ plan: tenant.plan, keys: await tx.keys.list(tenant.id) });
    });
  }

  /** A key of the scope's tenant. */
  async get(scope: Scope, keyId: string): Promise<Result<ApiKey>> {
    const key = own(scope, await this.ctx.store.reads.keys.get(keyId));
    return key ? ok(key) : refuse(notFound('key', keyId));
  }

  /** Members are refused (`forbidden`), tenants without API access too (`feature_not_allowed`). */
  async create(
    who: Acting,
    name: string,
    preset: KeyPreset,
  ): Promise<Result<{ key: ApiKey; value: string }>> {
    const clean = cleanName(name, 'key');
    if (!clean.ok) return clean;
    const attempt: Attempt = { action: 'key.create_refused', details: { name: clean.value } };
    const denied = await adminOnly(this.ctx, who, 'Only admins can create API keys.', () => attempt);
    if (denied) return refuse(denied);
    const value = generateApiKey();
    return this.ctx.store.write(async (tx) => {
      const now = this.ctx.clock.now();
      // Read in the write: a plan lost meanwhile is seen.
      const tenant = await tx.tenants.get(who.tenantId);
      if (!tenant) return refuse(notFound('tenant', who.tenantId));
      if (!planAllowsApi(tenant.plan)) {
        const refused = featureNotAllowed(
          `API keys need the Pro or Team plan; this tenant is on ${tenant.plan}.`,
        );
        // Answered, not thrown: the log entry commits with the refusal.
        await tx.activity.append(refusalEntry(who, attempt, refused), now);
        return refuse(refused);
      }
      const key = await tx.keys.insert(
        {
          tenantId: tenant.id,
          name: clean.value,
          prefix: value.slice(0, API_KEY_LISTED_LENGTH),
          hash: sha256Hex(value),
          scopes: KEY_PRESETS[preset],
          createdBy: who.operator.id,
        },
        now,
      );
      const details = { name: key.name, prefix: key.prefix, scopes: key.scopes };
      await tx.activity.append(
        { tenantId: tenant.id, actor: who.actor, action: 'key.created', subjectId: key.id, details },
        now,
      );
      return ok({ key, value });
    });
  }

  /** The key as the page before revoking shows it: admins only, and no attempt yet. */
  async toRevoke(who: Acting, keyId: string): Promise<Result<ApiKey>> {
    const denied = await adminOnly(this.ctx, who, 'Only admins can revoke API keys.');
    return denied ? refuse(denied) : this.get(who, keyId);
  }

  /** Revokes a key of the tenant; immediate for every request that reads it afterwards. */
  async revoke(who: Acting, keyId: string): Promise<Result<ApiKey>> {
    const denied = await adminOnly(this.ctx, who, 'Only admins can revoke API keys.', async () => {
      const key = own(who, await this.ctx.store.reads.keys.get(keyId));
      return key
        ? { action: 'key.revoke_refused', subjectId: key.id, details: { name: key.name } }
        : { action: 'key.revoke_refused' };
    });
    if (denied) return refuse(denied);
    return this.ctx.store.write(async (tx) => {
      const key = own(who, await tx.keys.get(keyId));
      if (!key) return refuse(notFound('key', keyId));
      if (key.state !== 'active') return ok(key);
      const now = this.ctx.clock.now();
      await tx.keys.revoke(key.id, who.operator.id, now);
      const details = { name: key.name, prefix: key.prefix };
      await tx.activity.append(
        { tenantId: key.tenant_id, actor: who.actor, action: 'key.revoked', subjectId: key.id, details },
        now,
      );
      const revoked = await tx.keys.get(key.id);
      return revoked ? ok(revoked) : refuse(notFound('key', keyId));
    });
  }
}
