/**
 * A boolean column as the engines hand it back: PostgreSQL's boolean, or SQLite's 0 or 1 (it has
 * no boolean type). Rows the statements read type such a column with this, and read it through
 * `isTrue`.
 */
export type StoredBoolean = boolean | 0 | 1;

export const isTrue = (value: StoredBoolean): boolean => value === true || value === 1;
