import type { ApiKey, KeyGrant } from '../../domain/records.js';
import { type GrantRow, grantFromRow, KEY_COLUMNS, type KeyRow, keyFromRow, newKey } from '../key-rows.js';
import type { NewKey } from '../store.js';
import { isoNow } from '../time.js';
import type { Connection } from './connection.js';

export async function insertKey(db: Connection, fields: NewKey, now: number): Promise<ApiKey> {
  const key = newKey(fields, now);
  await db.run(
    'INSERT INTO api_keys (id, tenant_id, name, prefix, hash, scopes, state, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      key.id,
      key.tenant_id,
      key.name,
      key.prefix,
      fields.hash,
      JSON.stringify(key.scopes),
      'active',
      key.created_at,
      key.created_by,
    ],
  );
  return key;
}

export async function getKey(db: Connection, id: string): Promise<ApiKey | undefined> {
  const row = await db.get<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`, [id]);
  return row && keyFromRow(row);
}

export async function listKeys(db: Connection, tenantId: string): Promise<ApiKey[]> {
  const rows = await db.all<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE tenant_id = ? ORDER BY created_at DESC, id`,
    [tenantId],
  );
  return rows.map(keyFromRow);
}

export async function revokeKey(db: Connection, id: string, operatorId: string, now: number): Promise<void> {
  await db.run(
    "UPDATE api_keys SET state = 'revoked', revoked_at = ?, revoked_by = ? WHERE id = ? AND state = 'active'",
    [isoNow(now), operatorId, id],
  );
}

/** The key with this hash and its tenant's plan, read fresh: revocations and plan changes apply at once. */
export async function findKeyByHash(db: Connection, hash: string): Promise<KeyGrant | undefined> {
  const row = await db.get<GrantRow>(
    `SELECT k.id, k.tenant_id, k.name, k.hash, k.scopes, k.state, t.plan
       FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.hash = ?`,
    [hash],
  );
  return row && grantFromRow(row);
}

export async function getGrant(
  db: Connection,
  keyId: string,
): Promise<Pick<KeyGrant, 'state' | 'plan'> | undefined> {
  return db.get(
    `SELECT k.state, t.plan FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.id = ?`,
    [keyId],
  );
}

export async function touchKey(db: Connection, id: string, now: number): Promise<void> {
  await db.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [isoNow(now), id]);
}
