/**
 * Secrets shown once, as the store keeps them: app/reveals.ts holds and takes them,
 * domain/one-time-secret.ts seals them.
 */

/** A secret waiting for its one view. */
export interface NewReveal {
  lookup: string;
  /** Only the operator who created the secret may see it. */
  operatorId: string;
  /** What the secret belongs to (a key's or an endpoint's id). */
  subjectId: string;
  sealed: string;
  expiresAt: number;
}

export type StoredReveal = Pick<NewReveal, 'subjectId' | 'sealed'>;

/** Secrets shown once, kept in the store so any process behind a load balancer can show them. */
export interface Reveals {
  insert(reveal: NewReveal): Promise<void>;
  /** The operator's entry, removed as it is read; undefined when it is gone, expired or another's. */
  take(lookup: string, operatorId: string, now: number): Promise<StoredReveal | undefined>;
  forgetExpired(now: number): Promise<void>;
}
