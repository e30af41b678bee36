import type { Operator, OperatorWithSecret } from '../../domain/records.js';
import { type NewOperator, newOperator, OPERATOR_COLUMNS } from '../operator-rows.js';
import type { Connection } from './connection.js';

export async function insertOperator(db: Connection, fields: NewOperator, now: number): Promise<Operator> {
  const operator = newOperator(fields, now);
  await db.run(
    `INSERT INTO operators (id, tenant_id, email, email_norm, role, password_hash, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
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
}

export function getOperator(db: Connection, id: string): Promise<Operator | undefined> {
  return db.get<Operator>(`SELECT ${OPERATOR_COLUMNS} FROM operators WHERE id = $1`, [id]);
}

export function findOperatorByEmail(
  db: Connection,
  emailNorm: string,
): Promise<OperatorWithSecret | undefined> {
  return db.get<OperatorWithSecret>(
    `SELECT ${OPERATOR_COLUMNS}, password_hash FROM operators WHERE email_norm = $1`,
    [emailNorm],
  );
}

/** Replaces the hash, unless it changed since `before` was read (a concurrent sign-in re-hashed it). */
export async function updatePasswordHash(
  db: Connection,
  id: string,
  before: string,
  after: string,
): Promise<void> {
  await db.run('UPDATE operators SET password_hash = $1 WHERE id = $2 AND password_hash = $3', [
    after,
    id,
    before,
  ]);
}
