/**
 * The frame both adapters' migrations run in: one transaction reads how many steps ran, applies
 * the missing ones in order and records the new count, so a start applies all of them or, when
 * one fails, none. What differs by engine is handed in: how the transaction begins (and so what
 * it locks), where the count is kept, how a step runs.
 */
export interface Schema<Step> {
  /** Runs SQL without parameters on the migrating connection. */
  exec(sql: string): Promise<void>;
  /** The statement that begins the transaction. */
  begin: string;
  /** How many steps ran. */
  version(): Promise<number>;
  apply(step: Step): Promise<void>;
  /** Records that `version` steps ran. */
  record(version: number): Promise<void>;
}

export async function runMigrations<Step>(steps: readonly Step[], schema: Schema<Step>): Promise<void> {
  await schema.exec(schema.begin);
  try {
    const version = await schema.version();
    for (const step of steps.slice(version)) await schema.apply(step);
    if (version < steps.length) await schema.record(steps.length);
    await schema.exec('COMMIT');
  } catch (error) {
    await schema.exec('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
