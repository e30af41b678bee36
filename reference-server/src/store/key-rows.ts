/**
 * An API key's row as both adapters read it (its scopes kept as JSON text), how it becomes the
 * API's `ApiKey`, and the key an insert stores.
 */
import type { Scope } from '@waitlistkit/protocol';
import { newId } from '../domain/ids.js';
import type { ApiKey, KeyGrant } from '../domain/records.js';
import type { NewKey } from './store.js';
import { isoNow } from './time.js';

export interface KeyRow extends Omit<ApiKey, 'scopes'> {
  scopes: string;
}

export const KEY_COLUMNS =
  'id, tenant_id, name, prefix, scopes, state, created_at, created_by, revoked_at, last_used_at';

export const keyFromRow = (row: KeyRow): ApiKey => ({ ...row, scopes: JSON.parse(row.scopes) as Scope[] });

export type GrantRow = Omit<KeyGrant, 'scopes'> & { scopes: string };

export const grantFromRow = (row: GrantRow): KeyGrant => ({
  ...row,
  scopes: JSON.parse(row.scopes) as Scope[],
});

/** The key `insertKey` stores: active, never used. */
export function newKey(fields: NewKey, now: number): ApiKey {
  return {
    id: newId('key'),
    tenant_id: fields.tenantId,
    name: fields.name,
    prefix: fields.prefix,
    scopes: [...fields.scopes],
    state: 'active',
    created_at: isoNow(now),
    created_by: fields.createdBy,
    revoked_at: null,
    last_used_at: null,
  };
}
