import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { checkFieldValues, type FieldDefinition, FieldDefinitionsSchema } from '../src/index.js';

const FIELDS: FieldDefinition[] = [
  { key: 'name', label: 'Your name', type: 'text', required: true },
  { key: 'role', label: 'Role', type: 'select', required: false, options: ['Engineer', 'Founder '] },
  { key: 'consent', label: 'I agree', type: 'checkbox', required: true },
  { key: 'news', label: 'News', type: 'checkbox', required: false },
];
const problem = (input: unknown) => {
  const checked = checkFieldValues(FIELDS, input);
  return checked.ok ? undefined : checked.problem;
};

describe('field definitions', () => {
  const parse = (fields: unknown) => z.safeParse(FieldDefinitionsSchema, fields);

  it('take each type with its own keys, `required` false unless said', () => {
    const parsed = parse([
      { key: 'company', label: 'Company', type: 'text' },
      { key: 'size', label: 'Size', type: 'select', options: ['1', '2-10'], required: true },
    ]);
    expect(parsed.success && parsed.data).toEqual([
      { key: 'company', label: 'Company', type: 'text', required: false },
      { key: 'size', label: 'Size', type: 'select', options: ['1', '2-10'], required: true },
    ]);
  });

  it.each([
    ['a key that is not an identifier', [{ key: 'Company', label: 'C', type: 'text' }]],
    ['a key of 33 characters', [{ key: `a${'b'.repeat(32)}`, label: 'C', type: 'text' }]],
    ['a label of 81 characters', [{ key: 'c', label: 'x'.repeat(81), type: 'text' }]],
    ['an empty label', [{ key: 'c', label: '', type: 'text' }]],
    ['an unknown type', [{ key: 'c', label: 'C', type: 'date' }]],
    ['options on a text', [{ key: 'c', label: 'C', type: 'text', options: ['a'] }]],
    ['a select without options', [{ key: 'c', label: 'C', type: 'select' }]],
    [
      '51 options',
      [{ key: 'c', label: 'C', type: 'select', options: Array.from({ length: 51 }, (_, i) => `o${i}`) }],
    ],
    ['an option repeated', [{ key: 'c', label: 'C', type: 'select', options: ['a', 'a'] }]],
    ['an unknown key', [{ key: 'c', label: 'C', type: 'text', placeholder: 'x' }]],
    [
      'a key repeated',
      [
        { key: 'c', label: 'C', type: 'text' },
        { key: 'c', label: 'D', type: 'checkbox' },
      ],
    ],
    ['eleven fields', Array.from({ length: 11 }, (_, i) => ({ key: `f${i}`, label: 'F', type: 'text' }))],
    ['a string for required', [{ key: 'c', label: 'C', type: 'text', required: 'yes' }]],
    ['not an array', { key: 'c' }],
  ])('refuse %s', (_, fields) => {
    expect(parse(fields).success).toBe(false);
  });
});

describe('checkFieldValues', () => {
  it('keeps the answers as stored: text trimmed, options exact, unanswered optional fields absent', () => {
    expect(
      checkFieldValues(FIELDS, { name: '  Ada  ', role: 'Founder ', consent: true, news: false }),
    ).toEqual({
      ok: true,
      value: { name: 'Ada', role: 'Founder ', consent: true, news: false },
    });
    expect(checkFieldValues(FIELDS, { name: 'Ada', role: '', consent: true })).toEqual({
      ok: true,
      value: { name: 'Ada', consent: true },
    });
  });

  it('asks nothing of a waitlist without fields, and refuses any answer there', () => {
    expect(checkFieldValues([], undefined)).toEqual({ ok: true, value: {} });
    expect(checkFieldValues([], {})).toEqual({ ok: true, value: {} });
    expect(checkFieldValues([], { name: 'x' })).toMatchObject({ ok: false, problem: { key: 'name' } });
  });

  it.each([
    ['not an object', ['Ada'], '', '`fields` must be an object.'],
    ['null', null, '', '`fields` must be an object.'],
    [
      'an unknown key, before any other problem',
      { zzz: 1 },
      'zzz',
      '`fields.zzz` is not a field of this waitlist.',
    ],
    [
      'a key on the prototype',
      JSON.parse('{"__proto__": {"name": "x"}, "name": "Ada", "consent": true}'),
      '__proto__',
      '`fields.__proto__` is not a field of this waitlist.',
    ],
    ['a required text missing', { consent: true }, 'name', '`fields.name` is required.'],
    ['a required text of spaces', { name: '   ', consent: true }, 'name', '`fields.name` is required.'],
    ['a text of another type', { name: 42, consent: true }, 'name', '`fields.name` must be a string.'],
    [
      'a text too long',
      { name: 'x'.repeat(501), consent: true },
      'name',
      '`fields.name` must be at most 500 characters long.',
    ],
    [
      'an option not offered',
      { name: 'A', role: 'CEO', consent: true },
      'role',
      '`fields.role` must be one of the options offered.',
    ],
    [
      'an option trimmed',
      { name: 'A', role: 'Founder', consent: true },
      'role',
      '`fields.role` must be one of the options offered.',
    ],
    [
      'a checkbox as a string',
      { name: 'A', consent: 'true' },
      'consent',
      '`fields.consent` must be true or false.',
    ],
    [
      'a required checkbox unticked',
      { name: 'A', consent: false },
      'consent',
      '`fields.consent` must be ticked.',
    ],
  ])('refuses %s, naming the key', (_, input, key, message) => {
    expect(problem(input)).toEqual({ key, message });
  });

  it('counts a text of 500 characters after trimming as fine', () => {
    expect(problem({ name: ` ${'x'.repeat(500)} `, consent: true })).toBeUndefined();
  });
});
