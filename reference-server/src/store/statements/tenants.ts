import type { Plan } from '@waitlistkit/protocol';
import { newId } from '../../domain/ids.js';
import type { Tenant } from '../../domain/records.js';
import type { Db } from '../db.js';
import type { Tenants } from '../store.js';
import { isoNow } from '../time.js';

export function tenantsOn(db: Db): Tenants {
  return {
    async insert(name: string, plan: Plan, now: number): Promise<Tenant> {
      const tenant: Tenant = { id: newId('tenant'), name, plan, created_at: isoNow(now) };
      await db.run('INSERT INTO tenants (id, name, plan, created_at) VALUES (?, ?, ?, ?)', [
        tenant.id,
        name,
        plan,
        tenant.created_at,
      ]);
      return tenant;
    },
    get: (id) => db.get<Tenant>('SELECT id, name, plan, created_at FROM tenants WHERE id = ?', [id]),
    setPlan: async (id, plan) =>
      (await db.run('UPDATE tenants SET plan = ? WHERE id = ?', [plan, id])).changes === 1,
    count: async () => (await db.get<{ n: number }>('SELECT count(*) AS n FROM tenants'))?.n ?? 0,
  };
}
