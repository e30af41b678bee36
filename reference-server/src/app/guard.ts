/**
 * Who may touch what, for every use case operators reach (the dashboard, the command line).
 * Everything is scoped by tenant: a record of another tenant is not found, like a missing one.
 * An operator acts in their own tenant; admins change things, and a member's attempt (only a
 * forged form or a script can make one) is refused and written to the activity log, naming what
 * it was about only when that is the tenant's own. The command line's reads and settings name no
 * operator: whoever runs it holds the database, and acts in the tenant of what the command names.
 */
import type { ActivityAction, NewActivity, Operator } from '../domain/records.js';
import type { Context } from './context.js';
import type { Who } from './lifecycle.js';
import { forbidden, notFound, type OperatorRefusal, ok, type Result, refuse } from './refusal.js';

/** What the use cases of operators work with. */
export type Base = Pick<Context, 'store' | 'clock'>;

/** Whose records a use case may see: one tenant's. */
export interface Scope {
  tenantId: string;
}

/** An operator acting: their tenant is the scope, `actor` names them in the log, their role says what they may change. */
export interface Acting extends Who {
  operator: Operator;
}

export function acting(operator: Operator): Acting {
  return {
    tenantId: operator.tenant_id,
    operator,
    actor: { type: 'operator', id: operator.id, name: operator.email },
  };
}

/** The guard: the operator of this id, acting; not found when there is none. */
export async function actingAs(ctx: Base, operatorId: string): Promise<Result<Acting>> {
  const operator = await ctx.store.reads.operators.get(operatorId);
  return operator ? ok(acting(operator)) : refuse(notFound('operator', operatorId));
}

/** What a command of the command line names, and so the tenant it acts in. */
export type Named = { tenant: string } | { waitlist: string } | { webhook: string };

/** The scope of the tenant a command names, or of the record it names; not found when there is none. */
export async function scopeOf(ctx: Base, named: Named): Promise<Result<Scope>> {
  const { reads } = ctx.store;
  if ('tenant' in named) {
    const tenant = await reads.tenants.get(named.tenant);
    return tenant ? ok({ tenantId: tenant.id }) : refuse(notFound('tenant', named.tenant));
  }
  if ('waitlist' in named) {
    const waitlist = await reads.waitlists.get(named.waitlist);
    return waitlist ? ok({ tenantId: waitlist.tenant_id }) : refuse(notFound('waitlist', named.waitlist));
  }
  const endpoint = await reads.webhooks.get(named.webhook);
  return endpoint
    ? ok({ tenantId: endpoint.tenant_id })
    : refuse(notFound('webhook endpoint', named.webhook));
}

/** `record` when it belongs to the scope's tenant; undefined when it is missing or another tenant's. */
export function own<T extends { tenant_id: string }>(scope: Scope, record: T | undefined): T | undefined {
  return record?.tenant_id === scope.tenantId ? record : undefined;
}

/** A refused attempt as the log keeps it: what was tried, on what (when it is the tenant's own), and why not. */
export interface Attempt {
  action: Extract<ActivityAction, `${string}_refused`>;
  subjectId?: string;
  details?: Record<string, unknown>;
}

export function refusalEntry(who: Acting, attempt: Attempt, refused: OperatorRefusal): NewActivity {
  const { action, subjectId, details } = attempt;
  return {
    tenantId: who.tenantId,
    actor: who.actor,
    action,
    ...(subjectId === undefined ? {} : { subjectId }),
    details: { ...details, reason: refused.code },
  };
}

/**
 * Admins may change things; a member is refused with `message`, and the attempt is logged, as
 * `about` describes it (called for members only, so admins pay no lookup). A page that only shows
 * what a change would do passes no `about`: looking is no attempt.
 */
export async function adminOnly(
  ctx: Base,
  who: Acting,
  message: string,
  about?: () => Promise<Attempt> | Attempt,
): Promise<OperatorRefusal | undefined> {
  if (who.operator.role === 'admin') return undefined;
  const refused = forbidden(message);
  if (about) {
    const entry = refusalEntry(who, await about(), refused);
    await ctx.store.write((tx) => tx.activity.append(entry, ctx.clock.now()));
  }
  return refused;
}
