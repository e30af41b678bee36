/**
 * The questions a waitlist asks at sign-up (docs/subscribers.md#fields): their definitions, and
 * the one check of a sign-up's answers that the server runs at its body check and the widget runs
 * before it sends, so both say the same thing about the same key. The check is plain code, not a
 * schema: the widget's script-tag file carries it, and every byte there counts.
 */
import * as z from 'zod/mini';

export const FIELDS_MAX = 10;
export const FIELD_KEY_PATTERN = /^[a-z][a-z0-9_]{0,31}$/;
export const FIELD_LABEL_MAX = 80;
export const FIELD_TEXT_MAX = 500;
export const FIELD_OPTIONS_MAX = 50;
export const FIELD_OPTION_MAX = 80;
export const FIELD_TYPES = ['text', 'select', 'checkbox'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

const key = z
  .string()
  .check(z.regex(FIELD_KEY_PATTERN, 'must start with a-z and hold only a-z, 0-9 and _ (at most 32)'));
const label = z.string().check(z.minLength(1), z.maxLength(FIELD_LABEL_MAX));
const required = z._default(z.boolean(), false);
const option = z.string().check(z.minLength(1), z.maxLength(FIELD_OPTION_MAX));

export const FieldDefinitionSchema = z.discriminatedUnion('type', [
  z.strictObject({ key, label, type: z.literal('text'), required }),
  z.strictObject({
    key,
    label,
    type: z.literal('select'),
    required,
    options: z.array(option).check(
      z.minLength(1),
      z.maxLength(FIELD_OPTIONS_MAX),
      z.refine((options) => new Set(options).size === options.length, 'must not repeat an option'),
    ),
  }),
  z.strictObject({ key, label, type: z.literal('checkbox'), required }),
]);
export type FieldDefinition = z.output<typeof FieldDefinitionSchema>;

/** A waitlist's fields, in the order the form shows them; `[]` asks nothing. */
export const FieldDefinitionsSchema = z.array(FieldDefinitionSchema).check(
  z.maxLength(FIELDS_MAX),
  z.refine((fields) => new Set(fields.map((f) => f.key)).size === fields.length, 'must not repeat a key'),
);

/** A sign-up's answers by key: a string for `text` and `select`, a boolean for `checkbox`. */
export type FieldValues = Record<string, string | boolean>;

/** The first answer that is wrong, by key, with a sentence that names the key. */
export interface FieldProblem {
  key: string;
  message: string;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The answers `input` gives to `fields`, as they are stored: text trimmed; an optional text left
 * empty, and a field not answered, absent. Refuses the first problem in the fields' order: an
 * unknown key (reported first, whatever its place), a required field missing, a wrong type, a text
 * too long, an option not offered, a required checkbox not ticked.
 */
export function checkFieldValues(
  fields: readonly FieldDefinition[],
  input: unknown,
): { ok: true; value: FieldValues } | { ok: false; problem: FieldProblem } {
  const refuse = (key: string, message: string) => ({ ok: false as const, problem: { key, message } });
  if (input === undefined) input = {};
  if (!isPlainObject(input)) return refuse('', '`fields` must be an object.');
  for (const k of Object.keys(input)) {
    if (!fields.some((f) => f.key === k))
      return refuse(k, `\`fields.${k}\` is not a field of this waitlist.`);
  }
  const value: FieldValues = {};
  for (const field of fields) {
    const where = `\`fields.${field.key}\``;
    const given = Object.hasOwn(input, field.key) ? input[field.key] : undefined;
    if (field.type === 'checkbox') {
      if (given !== undefined && typeof given !== 'boolean')
        return refuse(field.key, `${where} must be true or false.`);
      if (field.required && given !== true) return refuse(field.key, `${where} must be ticked.`);
      if (given !== undefined) value[field.key] = given;
      continue;
    }
    if (given !== undefined && typeof given !== 'string')
      return refuse(field.key, `${where} must be a string.`);
    // Text is trimmed; an option is what the definition says, byte for byte.
    const text = (field.type === 'text' ? given?.trim() : given) ?? '';
    if (text === '') {
      if (field.required) return refuse(field.key, `${where} is required.`);
      continue;
    }
    if (field.type === 'text' && text.length > FIELD_TEXT_MAX)
      return refuse(field.key, `${where} must be at most ${FIELD_TEXT_MAX} characters long.`);
    if (field.type === 'select' && !field.options.includes(text))
      return refuse(field.key, `${where} must be one of the options offered.`);
    value[field.key] = text;
  }
  return { ok: true, value };
}

/**
 * `GET /v1/public/waitlists/{id}/form`: what the widget renders besides the address, fetched
 * while it first renders (docs/endpoints.md#the-form).
 */
export const FormDescriptionSchema = z.object({ fields: FieldDefinitionsSchema });
export type FormDescription = z.output<typeof FormDescriptionSchema>;
