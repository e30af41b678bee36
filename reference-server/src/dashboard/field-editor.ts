/**
 * The field editor's form (docs/subscribers.md#fields) read without I/O: one row per field, named
 * by its index (`key_0`, `label_0`, …), and one blank row after them to add a field. Reordering
 * and removal are buttons of the same form (`move=up:1`, a ticked `remove_2`), so the editor
 * works without JavaScript: every press posts the whole list, and the server saves it.
 */
import type { FieldDefinition } from '@waitlistkit/protocol';
import { parseFieldDefinitions } from '../domain/setting-fields.js';
import { field } from './forms.js';

/** A row as the form shows it: options one per line. */
export interface FieldRow {
  key: string;
  label: string;
  type: string;
  required: boolean;
  options: string;
}

export const BLANK_ROW: FieldRow = { key: '', label: '', type: 'text', required: false, options: '' };

export function rowsOf(fields: readonly FieldDefinition[]): FieldRow[] {
  return fields.map((f) => ({
    key: f.key,
    label: f.label,
    type: f.type,
    required: f.required,
    options: f.type === 'select' ? f.options.join('\n') : '',
  }));
}

/** Rows past this are not read: the form never has more than the ten fields and the blank one. */
const MAX_ROWS = 11;

/**
 * The submitted rows, with the move or removal applied, and the definitions they make or the
 * first problem (`fields.1.label must …`, counted from 0 as the command line's file is).
 */
export function parseFieldsForm(body: unknown): {
  rows: FieldRow[];
  fields?: FieldDefinition[];
  error?: string;
} {
  let rows: FieldRow[] = [];
  for (let i = 0; i < MAX_ROWS; i++) {
    const key = field(body, `key_${i}`);
    if (key === undefined) break;
    if (field(body, `remove_${i}`) === 'on') continue;
    const row: FieldRow = {
      key: key.trim(),
      label: (field(body, `label_${i}`) ?? '').trim(),
      type: field(body, `type_${i}`) ?? 'text',
      required: field(body, `required_${i}`) === 'on',
      options: field(body, `options_${i}`) ?? '',
    };
    // The blank row adds a field only when something was typed in it.
    if (row.key !== '' || row.label !== '') rows.push(row);
  }
  const move = /^(up|down):(\d{1,2})$/.exec(field(body, 'move') ?? '');
  if (move) rows = moved(rows, Number(move[2]), move[1] === 'up' ? -1 : 1);
  const definitions = rows.map((row) => {
    const options = row.options
      .split('\n')
      .map((o) => o.trim())
      .filter((o) => o !== '');
    const base = { key: row.key, label: row.label, type: row.type, required: row.required };
    return row.type === 'select' ? { ...base, options } : base;
  });
  try {
    return { rows, fields: parseFieldDefinitions(definitions) };
  } catch (error) {
    // The page numbers its fields from 1, the rule's message from 0.
    const message = (error as Error).message.replace(
      /`fields\.(\d+)\.?([a-z]*)`/,
      (_, i: string, name: string) => `Field ${Number(i) + 1}${name ? `'s ${name}` : ''}`,
    );
    return { rows, error: message };
  }
}

function moved(rows: FieldRow[], index: number, by: -1 | 1): FieldRow[] {
  const to = index + by;
  if (index >= rows.length || to < 0 || to >= rows.length) return rows;
  const next = [...rows];
  [next[index], next[to]] = [next[to] as FieldRow, next[index] as FieldRow];
  return next;
}
