/**
 * One row of an import (docs/moving-a-list.md#the-file), checked on its own: the header's
 * columns, and each row's cells as what the store keeps. Pure: the rows across the file (repeats,
 * referrers, cycles) are import-plan.ts; reading the file is adapters/csv-reader.ts.
 */
import {
  checkEmail,
  checkFieldValues,
  type FieldDefinition,
  type FieldValues,
  keptSource,
  type Language,
  matchLanguage,
  SOURCE_KEYS,
  type Source,
  SourceSchema,
} from '@waitlistkit/protocol';
import { variantKey } from './address-variants.js';
import { unguarded } from './csv-cells.js';
import type { Dedupe } from './settings.js';

/** The columns an import reads, besides one per field. */
export const IMPORT_COLUMNS = [
  'email',
  'joined_at',
  'referred_by',
  'confirmed',
  'lang',
  ...SOURCE_KEYS,
] as const;
/** The columns an export adds (docs/moving-a-list.md#the-export): read back without complaint, and ignored. */
export const EXPORT_ONLY_COLUMNS = [
  'channel',
  'id',
  'position',
  'status',
  'referral_code',
  'referral_count',
  'admitted_at',
] as const;

type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/** Where each known column is in the file's rows. */
export interface ImportHeader {
  width: number;
  at: Partial<Record<ImportColumn, number>>;
  /** A field's key and its column (`fields.<key>`, or the bare key). */
  fields: { key: string; at: number }[];
}

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * The key repeats are found by, as a sign-up finds its re-sign-ups: the normalised address, or on a
 * waitlist with `dedupe=provider` its variant key where it has one (docs/subscribers.md#address-variants).
 */
export function importKey(normalized: string, dedupe: Dedupe): string {
  return (dedupe === 'provider' ? variantKey(normalized) : undefined) ?? normalized;
}

/** The header row: `email` required, every column known, none twice. Names are read trimmed and lower-cased. */
export function readHeader(
  cells: readonly string[],
  fields: readonly FieldDefinition[],
): Checked<ImportHeader> {
  const header: ImportHeader = { width: cells.length, at: {}, fields: [] };
  if (!cells.some((c) => c.trim().toLowerCase() === 'email'))
    return { ok: false, reason: 'the header has no `email` column.' };
  const seen = new Set<string>();
  for (const [i, cell] of cells.entries()) {
    const name = cell.trim().toLowerCase();
    if (seen.has(name)) return { ok: false, reason: `the column \`${name}\` is there twice.` };
    seen.add(name);
    const known = IMPORT_COLUMNS.find((c) => c === name);
    const field = fields.find((f) => name === f.key || name === `fields.${f.key}`);
    if (known !== undefined) header.at[known] = i;
    else if (field !== undefined) header.fields.push({ key: field.key, at: i });
    else if (!EXPORT_ONLY_COLUMNS.some((c) => c === name)) {
      return {
        ok: false,
        reason: `the column \`${name.slice(0, 80)}\` is neither one the import reads (${IMPORT_COLUMNS.join(', ')}) nor a field of this waitlist.`,
      };
    }
  }
  return { ok: true, value: header };
}

/** A row as the store keeps it. */
export interface ImportRow {
  email: string;
  /** The protocol's normalised address, stored as such. */
  normalized: string;
  /** `importKey` of the address. */
  key: string;
  /** Microseconds since the epoch; null: the import's own time. */
  joinedUs: number | null;
  /** `importKey` of the referrer's address. */
  referrerKey: string | null;
  confirmed: boolean | null;
  /**
   * The language we speak that the `lang` cell's tag asks for, matched as the widget matches a
   * page's (`pt-BR` → `pt`); null when empty, or a tag of a language we lack (docs/moving-a-list.md#the-file).
   */
  lang: Language | null;
  fields: FieldValues;
  source: Source;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2}))?$/;

/** `joined_at` in microseconds: RFC 3339, or `YYYY-MM-DD` as midnight UTC; from 1970 until `nowUs`. */
export function joinedAt(text: string, nowUs: number): Checked<number> {
  const m = RFC3339.exec(text);
  const bad = { ok: false as const, reason: '`joined_at` is not a date (RFC 3339, or YYYY-MM-DD).' };
  if (!m) return bad;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone = 'Z'] = m;
  if (m[4] !== undefined && m[8] === undefined) return bad;
  const parts = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const [year, month, day, hour, minute, second] = parts;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(ms);
  // Date.UTC rolls 31 February into March: a date that does not come back as written is not a date.
  if (
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return bad;
  const offsetMin =
    zone.toUpperCase() === 'Z'
      ? 0
      : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const us = (ms - offsetMin * 60_000) * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
  if (us < 0) return { ok: false, reason: '`joined_at` is before 1970.' };
  if (us > nowUs) return { ok: false, reason: '`joined_at` is in the future.' };
  return { ok: true, value: us };
}

/** A BCP 47 language tag, as `Intl` knows them. */
export function isLanguageTag(text: string): boolean {
  if (text.length > 35 || !/^[A-Za-z0-9-]+$/.test(text)) return false;
  try {
    return Intl.getCanonicalLocales(text).length === 1;
  } catch {
    return false;
  }
}

/** A row's cells as an `ImportRow`, or the first reason it is not one. */
export function checkRow(
  header: ImportHeader,
  raw: readonly string[],
  { nowUs, fields, dedupe }: { nowUs: number; fields: readonly FieldDefinition[]; dedupe: Dedupe },
): Checked<ImportRow> {
  if (raw.length !== header.width)
    return { ok: false, reason: `the row has ${raw.length} cells; the header has ${header.width}.` };
  const cells = raw.map(unguarded);
  const cell = (column: ImportColumn) => {
    const i = header.at[column];
    return i === undefined ? '' : (cells[i] ?? '').trim();
  };
  const email = checkEmail(cell('email'));
  if (!email.ok) return { ok: false, reason: `\`email\`: ${email.reason}` };
  const key = importKey(email.normalized, dedupe);

  let joinedUs: number | null = null;
  if (cell('joined_at') !== '') {
    const joined = joinedAt(cell('joined_at'), nowUs);
    if (!joined.ok) return joined;
    joinedUs = joined.value;
  }

  let referrerKey: string | null = null;
  if (cell('referred_by') !== '') {
    const referrer = checkEmail(cell('referred_by'));
    if (!referrer.ok) return { ok: false, reason: `\`referred_by\`: ${referrer.reason}` };
    referrerKey = importKey(referrer.normalized, dedupe);
    if (referrerKey === key) return { ok: false, reason: '`referred_by` is the row’s own address.' };
  }

  const confirmedText = cell('confirmed').toLowerCase();
  if (!['', 'true', 'false'].includes(confirmedText))
    return { ok: false, reason: '`confirmed` must be true or false.' };
  const confirmed = confirmedText === '' ? null : confirmedText === 'true';

  const lang = cell('lang');
  if (lang !== '' && !isLanguageTag(lang))
    return { ok: false, reason: '`lang` is not a language tag (BCP 47).' };

  const given: Record<string, string> = {};
  for (const k of SOURCE_KEYS) if (cell(k) !== '') given[k] = cell(k);
  const source = SourceSchema.safeParse(given);
  if (!source.success) {
    const k = String(source.error.issues[0]?.path[0] ?? 'source');
    return {
      ok: false,
      reason: `\`${k}\` must be at most 200 characters${k === 'referrer' || k === 'landing' ? ', an http or https address' : ''}.`,
    };
  }

  const answers: Record<string, string | boolean> = {};
  for (const { key: k, at } of header.fields) {
    const text = cells[at] ?? '';
    if (text.trim() === '') continue;
    const isBox = fields.find((f) => f.key === k)?.type === 'checkbox';
    const lower = text.trim().toLowerCase();
    answers[k] = isBox && (lower === 'true' || lower === 'false') ? lower === 'true' : text;
  }
  const checkedFields = checkFieldValues(fields, answers);
  if (!checkedFields.ok) return { ok: false, reason: checkedFields.problem.message };

  return {
    ok: true,
    value: {
      email: email.email,
      normalized: email.normalized,
      key,
      joinedUs,
      referrerKey,
      confirmed,
      lang: lang === '' ? null : (matchLanguage(lang) ?? null),
      fields: checkedFields.value,
      source: keptSource(source.data),
    },
  };
}
