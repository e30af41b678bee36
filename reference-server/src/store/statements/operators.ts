/** Operators, never read with their password's hash but to sign in. */
import { newId } from '../../domain/ids.js';
import type { Operator, OperatorWithSecret } from '../../domain/records.js';
import type { Db } from '../db.js';
import type { Operators } from '../store.js';
import { isoNow } from '../time.js';

const OPERATOR_COLUMNS = 'id, tenant_id, email, role, created_at';

export function operatorsOn(db: Db): Operators {
  return {
    async insert(fields, now) {
      const operator: Operator = {
        id: newId('operator'),
        tenant_id: fields.tenantId,
        email: fields.email,
        role: fields.role,
        created_at: isoNow(now),
      };
      await db.run(
        'INSERT INTO operators (id, tenant_id, email, email_norm, role, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [
          operator.id,
          fields.tenantId,
          fields.email,
          fields.emailNorm,
          fields.role,
          fields.passwordHash,
          operator.created_at,
        ],
      );
      return operator;
    },
    get: (id) => db.get<Operator>(`SELECT ${OPERATOR_COLUMNS} FROM operators WHERE id = ?`, [id]),
    findByEmail: (emailNorm) =>
      db.get<OperatorWithSecret>(
        `SELECT ${OPERATOR_COLUMNS}, password_hash FROM operators WHERE email_norm = ?`,
        [emailNorm],
      ),
    // Unless it changed since `before` was read: a concurrent sign-in re-hashed it.
    async replacePasswordHash(id, before, after) {
      await db.run('UPDATE operators SET password_hash = ? WHERE id = ? AND password_hash = ?', [
        after,
        id,
        before,
      ]);
    },
  };
}
