import { describe, expect, it } from 'vitest';
import { checkFieldValues, type FieldDefinition, fieldNamed } from '../src/index.js';

const fields: FieldDefinition[] = [
  { key: 'company', label: 'Company', type: 'text', required: true },
  { key: 'role_2', label: 'Role', type: 'select', required: false, options: ['Dev', 'PM'] },
  { key: 'consent', label: 'I agree', type: 'checkbox', required: true },
];

describe('the field a refusal names', () => {
  it.each([
    [{}, 'company'],
    [{ company: 'Acme', role_2: 'CEO' }, 'role_2'],
    [{ company: 'Acme', consent: false }, 'consent'],
    [{ company: 'Acme', consent: 'yes' }, 'consent'],
    [{ company: 'Acme', consent: true, nickname: 'x' }, 'nickname'],
  ])('is the key of every problem checkFieldValues reports (%j)', (input, key) => {
    const checked = checkFieldValues(fields, input);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(fieldNamed(checked.problem.message)).toBe(key);
  });

  it.each([
    ['a message about the address', 'The email address is not valid.'],
    ['the body as a whole', '`fields` must be an object.'],
    ['a key that cannot be one', '`fields.Company` is required.'],
    ['a plain mention', 'fields.company is required.'],
    ['an empty message', ''],
  ])('is none for %s', (_, message) => {
    expect(fieldNamed(message)).toBeUndefined();
  });
});
