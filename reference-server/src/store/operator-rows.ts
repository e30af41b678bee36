/** The columns of an operator both adapters read (never the password's hash), and the operator an insert stores. */
import { newId } from '../domain/ids.js';
import type { Operator } from '../domain/records.js';
import type { Operators } from './store.js';
import { isoNow } from './time.js';

export const OPERATOR_COLUMNS = 'id, tenant_id, email, role, created_at';

export type NewOperator = Parameters<Operators['insert']>[0];

export function newOperator(fields: NewOperator, now: number): Operator {
  return {
    id: newId('operator'),
    tenant_id: fields.tenantId,
    email: fields.email,
    role: fields.role,
    created_at: isoNow(now),
  };
}
