/**
 * Tenants, their plans and their operators: the command line's set-up (the dashboard creates no
 * tenant or operator). A password given is checked for length; one not given is generated and
 * answered once, here: only its hash is stored.
 */
import { checkEmail, type Plan } from '@waitlistkit/protocol';
import { generatePassword, hashPassword, PASSWORD_MIN_LENGTH } from '../adapters/passwords.js';
import type { Operator, Role, Tenant } from '../domain/records.js';
import type { Base, Scope } from './guard.js';
import { cleanName } from './names.js';
import { conflict, invalid, notFound, ok, type Result, refuse } from './refusal.js';

export class Tenants {
  constructor(private readonly ctx: Base) {}

  async create(name: string, plan: Plan): Promise<Result<Tenant>> {
    const clean = cleanName(name, 'tenant');
    if (!clean.ok) return clean;
    return ok(await this.ctx.store.write((tx) => tx.tenants.insert(clean.value, plan, this.ctx.clock.now())));
  }

  /** Takes effect on the next request: keys read their tenant's plan fresh. */
  setPlan(tenantId: string, plan: Plan): Promise<Result<Tenant>> {
    return this.ctx.store.write(async (tx) => {
      const tenant = await tx.tenants.get(tenantId);
      if (!tenant) return refuse(notFound('tenant', tenantId));
      await tx.tenants.setPlan(tenant.id, plan);
      return ok({ ...tenant, plan });
    });
  }

  /** An operator of the scope's tenant; `password` in the answer only when it was generated. */
  async createOperator(
    scope: Scope,
    fields: { email: string; role: Role; password?: string | undefined },
  ): Promise<Result<{ operator: Operator; password?: string }>> {
    const email = checkEmail(fields.email);
    if (!email.ok) return refuse(invalid(email.reason, 'email'));
    if (fields.password !== undefined && fields.password.length < PASSWORD_MIN_LENGTH) {
      return refuse(invalid(`The password must be at least ${PASSWORD_MIN_LENGTH} characters.`, 'password'));
    }
    const password = fields.password ?? generatePassword();
    const passwordHash = await hashPassword(password);
    const created = await this.ctx.store.write(async (tx) => {
      if (await tx.operators.findByEmail(email.normalized)) {
        return refuse(conflict(`An operator with the email ${email.email} exists already.`, 'email'));
      }
      const fresh = { tenantId: scope.tenantId, email: email.email, emailNorm: email.normalized };
      return ok(
        await tx.operators.insert({ ...fresh, role: fields.role, passwordHash }, this.ctx.clock.now()),
      );
    });
    if (!created.ok) return created;
    return ok(
      fields.password === undefined ? { operator: created.value, password } : { operator: created.value },
    );
  }
}
