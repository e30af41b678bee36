/**
 * The rules of an import without I/O (docs/moving-a-list.md#what-is-imported): a row's checks
 * (domain/import-row.ts), the rules across rows (domain/import-plan.ts), and the export's formula
 * guard read back (domain/csv-cells.ts).
 */
import type { FieldDefinition } from '@waitlistkit/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, unguarded } from '../src/domain/csv-cells.js';
import { ImportPlan, mayImport, outsideKeys, referralOutcome } from '../src/domain/import-plan.js';
import {
  checkRow,
  type ImportHeader,
  isLanguageTag,
  joinedAt,
  readHeader,
} from '../src/domain/import-row.js';

const NOW_US = Date.UTC(2026, 0, 1) * 1000;
const FIELDS: FieldDefinition[] = [
  { key: 'company', label: 'Company', type: 'text', required: false },
  { key: 'consent', label: 'Consent', type: 'checkbox', required: true },
];

function header(cells: string[], fields: FieldDefinition[] = []): ImportHeader {
  const read = readHeader(cells, fields);
  if (!read.ok) throw new Error(read.reason);
  return read.value;
}

const reasonOf = (h: ImportHeader, cells: string[], fields: FieldDefinition[] = []) => {
  const checked = checkRow(h, cells, { nowUs: NOW_US, fields, dedupe: 'exact' });
  return checked.ok ? undefined : checked.reason;
};

describe('the header', () => {
  it('needs an email column, knows every column it reads, and reads names trimmed and in any case', () => {
    expect(readHeader(['joined_at'], [])).toEqual({ ok: false, reason: 'the header has no `email` column.' });
    expect(readHeader([' Email ', 'JOINED_AT'], []).ok).toBe(true);
    expect(readHeader(['email', 'email'], [])).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/twice/),
    });
    expect(readHeader(['email', 'notes'], [])).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/`notes` is neither one the import reads/),
    });
  });

  it('reads a field by its key or as fields.<key>, and the export’s own columns without complaint', () => {
    const h = header(['email', 'fields.company', 'consent', 'id', 'position', 'status'], FIELDS);
    expect(h.fields).toEqual([
      { key: 'company', at: 1 },
      { key: 'consent', at: 2 },
    ]);
  });
});

describe('a row', () => {
  const h = header(['email', 'joined_at', 'referred_by', 'confirmed', 'lang', 'utm_source', 'landing']);
  const row = (cells: Partial<Record<string, string>>) =>
    ['email', 'joined_at', 'referred_by', 'confirmed', 'lang', 'utm_source', 'landing'].map(
      (c) => cells[c] ?? '',
    );

  it('is the address as given, its normalised key, and what the other cells say', () => {
    const checked = checkRow(
      h,
      row({
        email: ' Ada@Example.COM ',
        joined_at: '2024-03-01',
        referred_by: 'BO@example.com',
        confirmed: 'FALSE',
        lang: 'pt-br',
        utm_source: 'news',
        landing: 'https://shop.example/launch?token=secret#x',
      }),
      { nowUs: NOW_US, fields: [], dedupe: 'exact' },
    );
    expect(checked).toEqual({
      ok: true,
      value: {
        email: 'Ada@Example.COM',
        normalized: 'ada@example.com',
        key: 'ada@example.com',
        joinedUs: Date.UTC(2024, 2, 1) * 1000,
        referrerKey: 'bo@example.com',
        confirmed: false,
        lang: 'pt',
        fields: {},
        source: { utm_source: 'news', landing: 'https://shop.example/launch' },
      },
    });
  });

  it('keys a row by its variant on a waitlist with dedupe=provider, so a variant is a repeat and cannot refer itself', () => {
    const provider = (cells: Partial<Record<string, string>>) =>
      checkRow(h, row(cells), { nowUs: NOW_US, fields: [], dedupe: 'provider' });
    expect(provider({ email: 'J.O.H.N+x@Gmail.com', referred_by: 'ada@googlemail.com' })).toMatchObject({
      ok: true,
      value: { normalized: 'j.o.h.n+x@gmail.com', key: 'john@gmail.com', referrerKey: 'ada@gmail.com' },
    });
    expect(provider({ email: 'ada@example.com' })).toMatchObject({ value: { key: 'ada@example.com' } });
    expect(provider({ email: 'j.ohn@gmail.com', referred_by: 'john+ref@gmail.com' })).toEqual({
      ok: false,
      reason: '`referred_by` is the row’s own address.',
    });
    expect(reasonOf(h, row({ email: 'j.ohn@gmail.com', referred_by: 'john+ref@gmail.com' }))).toBeUndefined();
  });

  it('says why it is invalid: the address, the date, confirmed, lang, source, its own referrer, its width', () => {
    expect(reasonOf(h, row({ email: 'not an address' }))).toMatch(/^`email`: /);
    expect(reasonOf(h, row({ email: 'a@b.example', joined_at: '2026-02-01' }))).toBe(
      '`joined_at` is in the future.',
    );
    expect(reasonOf(h, row({ email: 'a@b.example', joined_at: '01/02/2024' }))).toMatch(/not a date/);
    expect(reasonOf(h, row({ email: 'a@b.example', confirmed: 'yes' }))).toBe(
      '`confirmed` must be true or false.',
    );
    expect(reasonOf(h, row({ email: 'a@b.example', lang: 'not a tag' }))).toMatch(/`lang`/);
    expect(reasonOf(h, row({ email: 'a@b.example', landing: 'javascript:alert(1)' }))).toMatch(/`landing`/);
    expect(reasonOf(h, row({ email: 'a@b.example', utm_source: 'x'.repeat(201) }))).toMatch(
      /`utm_source` must be at most 200/,
    );
    expect(reasonOf(h, row({ email: 'A@b.example', referred_by: 'a@B.example' }))).toBe(
      '`referred_by` is the row’s own address.',
    );
    expect(reasonOf(h, ['a@b.example'])).toBe('the row has 1 cells; the header has 7.');
  });

  it('checks field answers with the protocol’s check, a checkbox from true or false', () => {
    const f = header(['email', 'company', 'consent'], FIELDS);
    expect(
      checkRow(f, ['a@b.example', ' Acme ', 'TRUE'], { nowUs: NOW_US, fields: FIELDS, dedupe: 'exact' }),
    ).toMatchObject({
      ok: true,
      value: { fields: { company: 'Acme', consent: true } },
    });
    expect(reasonOf(f, ['a@b.example', '', 'false'], FIELDS)).toBe('`fields.consent` must be ticked.');
    expect(reasonOf(f, ['a@b.example', 'x'.repeat(501), 'true'], FIELDS)).toMatch(
      /`fields.company` must be at most 500/,
    );
  });

  it('reads the export’s formula guard back', () => {
    const g = header(['email']);
    expect(checkRow(g, ["'=cmd@evil.example"], { nowUs: NOW_US, fields: [], dedupe: 'exact' })).toMatchObject(
      {
        value: { email: '=cmd@evil.example' },
      },
    );
  });
});

describe('joined_at', () => {
  it('is RFC 3339 with its offset and up to microseconds, or a date as midnight UTC', () => {
    expect(joinedAt('2024-03-01T10:30:00+01:00', NOW_US)).toEqual({
      ok: true,
      value: Date.UTC(2024, 2, 1, 9, 30) * 1000,
    });
    expect(joinedAt('2024-03-01T09:30:00.123456789Z', NOW_US)).toEqual({
      ok: true,
      value: Date.UTC(2024, 2, 1, 9, 30) * 1000 + 123456,
    });
    expect(joinedAt('2024-02-29', NOW_US).ok).toBe(true);
  });

  it('refuses what is not a date, a date that does not exist, a time without its zone, before 1970 or in the future', () => {
    for (const text of [
      '2023-02-29',
      '2024-13-01',
      '2024-03-01T25:00:00Z',
      '2024-03-01T10:00:00',
      '1969-12-31',
      '2026-01-01T00:00:00.000001Z',
    ])
      expect(joinedAt(text, NOW_US).ok, text).toBe(false);
  });
});

describe('lang', () => {
  it('is a BCP 47 tag', () => {
    expect(['en', 'pt-BR', 'zh-Hant-TW', 'fa'].every(isLanguageTag)).toBe(true);
    expect(['', 'en_US', 'x'.repeat(40), 'en--US', '<script>'].some(isLanguageTag)).toBe(false);
  });

  it('is kept as the language we speak that it asks for, or none for a language we lack', () => {
    const h = header(['email', 'lang']);
    const langOf = (lang: string) => {
      const checked = checkRow(h, ['a@b.example', lang], { nowUs: NOW_US, fields: [], dedupe: 'exact' });
      if (!checked.ok) throw new Error(checked.reason);
      return checked.value.lang;
    };
    expect(['de', 'pt-BR', 'EN-us', 'zh-TW', 'zh-Hant-HK', 'iw', 'zh-Hant'].map(langOf)).toEqual([
      'de',
      'pt',
      'en',
      'zh-Hant',
      'zh-Hant',
      'he',
      'zh-Hant',
    ]);
    // A well-formed tag of a language we lack moves the person in without one: the waitlist's default.
    expect(['sw', 'tlh', 'gsw-CH', ''].map(langOf)).toEqual([null, null, null, null]);
  });
});

describe('the rows across a file', () => {
  const to = (line: number, refKey: string, refLine: number | null = null) => ({ line, refKey, refLine });

  it('asks the list about referrers outside the file, and refuses one on neither', () => {
    const plan = new ImportPlan();
    const referrals = [to(2, 'listed@x.example'), to(3, 'nowhere@x.example'), to(4, 'a@x.example', 2)];
    expect(outsideKeys(referrals).sort()).toEqual(['listed@x.example', 'nowhere@x.example']);
    expect(plan.settle(referrals, new Set(['listed@x.example']))).toEqual([3]);
    expect(plan.invalid()).toEqual([
      { line: 3, reason: '`referred_by` is neither an address in the file nor one on the list.' },
    ]);
  });

  it('refuses every row of a cycle of referrers, naming the cycle, and the rows hanging from it', () => {
    const plan = new ImportPlan();
    // Lines 2 and 3 refer to each other, 4 to 2; 6 to 5, which names nobody.
    const referrals = [
      to(2, 'b@x.example', 3),
      to(3, 'a@x.example', 2),
      to(4, 'a@x.example', 2),
      to(6, 'd@x.example', 5),
    ];
    expect(plan.settle(referrals, new Set()).sort()).toEqual([2, 3, 4]);
    const invalid = plan.invalid();
    expect(invalid[0]?.reason).toBe('`referred_by` makes a cycle: line 2 → line 3 → line 2.');
    expect(invalid[1]?.reason).toBe('`referred_by` makes a cycle: line 2 → line 3 → line 2.');
    expect(invalid[2]).toEqual({
      line: 4,
      reason: '`referred_by` names the address of line 2, which is invalid.',
    });
  });

  it('refuses a row whose referrer’s row is invalid', () => {
    const plan = new ImportPlan();
    plan.reject(2, '`joined_at` is in the future.', 'a@x.example');
    expect(plan.settle([to(3, 'a@x.example')], new Set())).toEqual([3]);
    expect(plan.invalid()[1]).toEqual({
      line: 3,
      reason: '`referred_by` names the address of line 2, which is invalid.',
    });
  });

  it('never settles a chain of referrers wrongly (fuzz against a walk of each chain)', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.nat(12), { nil: null }), { maxLength: 12 }), (refs) => {
        // Row i is line i + 2; it names row r (in the file when r < refs.length), or nobody.
        const referrals = refs.flatMap((r, i) =>
          r === null || r === i ? [] : [to(i + 2, `r${r}@x.example`, r < refs.length ? r + 2 : null)],
        );
        const dropped = new Set(new ImportPlan().settle(referrals, new Set()));
        refs.forEach((_, i) => {
          // Valid exactly when walking up the referrers ends at a row without one.
          let at: number | null = i;
          const seen = new Set<number>();
          while (at !== null && !seen.has(at) && at < refs.length) {
            seen.add(at);
            const r: number | null | undefined = refs[at];
            at = r === null || r === undefined || r === at ? null : r;
          }
          expect(dropped.has(i + 2), `row ${i}`).toBe(at !== null);
        });
      }),
    );
  });
});

describe('what an import writes and credits', () => {
  it('writes nothing while a row is invalid, unless told to skip them', () => {
    expect([mayImport(0, false), mayImport(1, false), mayImport(1, true)]).toEqual([true, false, true]);
  });

  it('credits as a referral does: not with referrals off; noted until a row not confirmed confirms', () => {
    const on = { referrals: true, confirm_email: false };
    expect(referralOutcome({ ...on, referrals: false }, null)).toBe('none');
    expect(referralOutcome(on, false)).toBe('credited');
    expect(referralOutcome({ ...on, confirm_email: true }, false)).toBe('noted');
    expect(referralOutcome({ ...on, confirm_email: true }, null)).toBe('credited');
  });
});

describe('the export’s formula guard', () => {
  it('is read back exactly (fuzz)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', 'a', '"', ',') }),
        (text) => {
          const cell = csvCell(text);
          const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell;
          expect(unguarded(unquoted)).toBe(text);
          expect(/^[=+\-@\t\r]/.test(unquoted)).toBe(false);
        },
      ),
    );
  });
});
