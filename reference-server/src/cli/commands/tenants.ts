/** Tenants, their plans, and their operators (dashboard accounts). */
import { PLANS, type Plan } from '@waitlistkit/protocol';
import type { Role, Tenant } from '../../domain/records.js';
import { type Command, idOption, inScope, optionalStr, shown, str, withServices } from '../command.js';
import type { OptionSpec } from '../options.js';

const planOption: OptionSpec = {
  name: 'plan',
  kind: 'enum',
  values: PLANS,
  required: true,
  description: 'plan: API access on pro and team only',
};

const tenantJson = (t: Tenant) => ({ id: t.id, name: t.name, plan: t.plan });

export const TENANT_COMMANDS: Command[] = [
  {
    name: 'tenant create',
    summary: 'create a tenant',
    options: [
      { name: 'name', kind: 'string', placeholder: 'NAME', required: true, description: 'display name' },
      planOption,
    ],
    run: (o, context) =>
      withServices(context, async ({ tenants }) =>
        shown(await tenants.create(str(o, 'name'), str(o, 'plan') as Plan), tenantJson),
      ),
  },
  {
    name: 'tenant set-plan',
    summary: "change a tenant's plan (takes effect on the next request)",
    options: [idOption('tenant', 'tenant', 'ten_'), planOption],
    run: (o, context) =>
      withServices(context, async ({ tenants }) =>
        shown(await tenants.setPlan(str(o, 'tenant'), str(o, 'plan') as Plan), tenantJson),
      ),
  },
  {
    name: 'operator create',
    summary: 'create an operator (dashboard account) of a tenant',
    options: [
      idOption('tenant', 'tenant', 'ten_'),
      {
        name: 'email',
        kind: 'string',
        placeholder: 'EMAIL',
        required: true,
        maxLength: 254,
        description: 'sign-in email',
      },
      {
        name: 'role',
        kind: 'enum',
        values: ['admin', 'member'],
        required: true,
        description: 'admin or member',
      },
      {
        name: 'password',
        kind: 'string',
        placeholder: 'P',
        maxLength: 1024,
        description: 'sign-in password (generated and printed when omitted)',
      },
    ],
    run: (o, context) =>
      inScope({ tenant: str(o, 'tenant') }, context, async ({ tenants }, scope) => {
        const fields = {
          email: str(o, 'email'),
          role: str(o, 'role') as Role,
          password: optionalStr(o, 'password'),
        };
        return shown(await tenants.createOperator(scope, fields), ({ operator, password }) => {
          const { id, tenant_id, email, role } = operator;
          const printed = { id, tenant_id, email, role };
          return password === undefined ? printed : { ...printed, password };
        });
      }),
  },
];
