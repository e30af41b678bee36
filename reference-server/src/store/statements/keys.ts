/** API keys, their scopes kept as JSON text; a key's grant is read fresh with its tenant's plan. */
import type { Scope } from '@waitlistkit/protocol';
import { newId } from '../../domain/ids.js';
import type { ApiKey, KeyGrant } from '../../domain/records.js';
import type { Db } from '../db.js';
import type { Keys } from '../store.js';
import { isoNow } from '../time.js';

type KeyRow = Omit<ApiKey, 'scopes'> & { scopes: string };
type GrantRow = Omit<KeyGrant, 'scopes'> & { scopes: string };

const KEY_COLUMNS =
  'id, tenant_id, name, prefix, scopes, state, created_at, created_by, revoked_at, last_used_at';

const keyFromRow = (row: KeyRow): ApiKey => ({ ...row, scopes: JSON.parse(row.scopes) as Scope[] });

export function keysOn(db: Db): Keys {
  return {
    async insert(fields, now) {
      const key: ApiKey = {
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
      await db.run(
        `INSERT INTO api_keys (id, tenant_id, name, prefix, hash, scopes, state, created_at, created_by)
         VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?)`,
        [
          key.id,
          key.tenant_id,
          key.name,
          key.prefix,
          fields.hash,
          JSON.stringify(key.scopes),
          key.created_at,
          key.created_by,
        ],
      );
      return key;
    },
    async get(id) {
      const row = await db.get<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`, [id]);
      return row && keyFromRow(row);
    },
    async list(tenantId) {
      const rows = await db.all<KeyRow>(
        `SELECT ${KEY_COLUMNS} FROM api_keys WHERE tenant_id = ? ORDER BY created_at DESC, id`,
        [tenantId],
      );
      return rows.map(keyFromRow);
    },
    async revoke(id, operatorId, now) {
      await db.run(
        "UPDATE api_keys SET state = 'revoked', revoked_at = ?, revoked_by = ? WHERE id = ? AND state = 'active'",
        [isoNow(now), operatorId, id],
      );
    },
    // Read fresh with the tenant's plan: revocations and plan changes apply at once.
    async findByHash(hash) {
      const row = await db.get<GrantRow>(
        `SELECT k.id, k.tenant_id, k.name, k.hash, k.scopes, k.state, t.plan
           FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.hash = ?`,
        [hash],
      );
      return row && { ...row, scopes: JSON.parse(row.scopes) as Scope[] };
    },
    grant: (id) =>
      db.get<Pick<KeyGrant, 'state' | 'plan'>>(
        'SELECT k.state, t.plan FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.id = ?',
        [id],
      ),
    async touch(id, now) {
      await db.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [isoNow(now), id]);
    },
  };
}
