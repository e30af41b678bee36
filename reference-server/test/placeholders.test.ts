/**
 * The statements both stores share (src/store/statements) are written with SQLite's placeholders;
 * PostgreSQL's connection numbers them as its own, by SQLite's rule, so one text means the same
 * on both engines.
 */
import { describe, expect, it } from 'vitest';
import { inlined, numbered } from '../src/store/postgres/connection.js';

describe("PostgreSQL's numbering of SQLite's placeholders", () => {
  it('numbers bare ones in order, and keeps the number of numbered ones', () => {
    expect(numbered('SELECT id FROM t WHERE a = ? AND b = ?')).toBe(
      'SELECT id FROM t WHERE a = $1 AND b = $2',
    );
    expect(numbered('WHERE a = ?1 AND b = ?2 AND c = ?1')).toBe('WHERE a = $1 AND b = $2 AND c = $1');
  });

  it('gives a bare one the number after the highest so far, as SQLite does', () => {
    expect(numbered('SET x = ?2 + ?3 WHERE id IN (SELECT ?) AND y = ?2')).toBe(
      'SET x = $2 + $3 WHERE id IN (SELECT $4) AND y = $2',
    );
  });

  it("leaves quoted text, quoted names, comments and PostgreSQL's own placeholders alone", () => {
    expect(numbered(`SELECT '?', 'it''s ?', "a?b", ? -- why?\n FROM t /* ?1 */ WHERE x = ?`)).toBe(
      `SELECT '?', 'it''s ?', "a?b", $1 -- why?\n FROM t /* ?1 */ WHERE x = $2`,
    );
    expect(numbered('SELECT $1::bigint[]')).toBe('SELECT $1::bigint[]');
  });
});

describe("PostgreSQL's parameters written in as literals (a batch of statements in one round trip)", () => {
  it('writes text quoted, numbers, booleans and NULL as they are, and arrays as array literals', () => {
    expect(inlined('SELECT $1, $2, $3, $4, $2', ["it's", 42, true, null])).toBe(
      "SELECT 'it''s', 42, true, NULL, 42",
    );
    expect(
      inlined('SELECT $1::text[], $2::bigint[]', [
        ['a', 'b "c"', null, 'd\\e'],
        [1, 2],
      ]),
    ).toBe(`SELECT  E'{"a","b \\\\"c\\\\"",NULL,"d\\\\\\\\e"}'::text[], '{1,2}'::bigint[]`);
  });

  it('leaves quoted text, quoted names and comments alone, and refuses what has no literal', () => {
    expect(inlined(`SELECT '$1', "$1", $1 -- $1\n /* $1 */`, ['x'])).toBe(
      `SELECT '$1', "$1", 'x' -- $1\n /* $1 */`,
    );
    expect(() => inlined('SELECT $1', [Number.NaN])).toThrow(/finite/);
    expect(() => inlined('SELECT $1', [{}])).toThrow(/no literal/);
  });
});
