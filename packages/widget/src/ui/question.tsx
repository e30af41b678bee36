/**
 * One of the waitlist's questions in the form (docs/subscribers.md#fields), and the answers the
 * controls hold. A control's id is `k-` and its key, its error's `m-` and its key: keys are
 * lower-case identifiers, so neither meets the form's own ids (`e`, `f`, `s`).
 */
import { FIELD_TEXT_MAX, type FieldDefinition, type FieldValues } from '@waitlistkit/protocol';
import { h, type VNode } from './render.js';

/** A question: labelled, its refusal (`error`) tied to it, read out when focus moves there. */
export function question(field: FieldDefinition, error: string): VNode {
  const id = `k-${field.key}`;
  const control = {
    id,
    part: 'input',
    required: field.required,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': error ? `m-${field.key}` : undefined,
  };
  return (
    <div class="q">
      {field.type === 'checkbox' ? (
        <label class="c" part="label">
          <input type="checkbox" {...control} />
          {field.label}
        </label>
      ) : (
        <label for={id} part="label">
          {field.label}
        </label>
      )}
      {field.type === 'select' ? (
        <select {...control}>
          {!field.required && <option value="" />}
          {field.options.map((option) => (
            <option>{option}</option>
          ))}
        </select>
      ) : (
        field.type === 'text' && <input {...control} maxLength={FIELD_TEXT_MAX} />
      )}
      <p id={`m-${field.key}`} part="error" class="bad">
        {error}
      </p>
    </div>
  );
}

/** The answers as the controls under `root` hold them, by key: `checkFieldValues` judges them. */
export function answersIn(root: ParentNode | null, fields: readonly FieldDefinition[]): FieldValues {
  const answers: FieldValues = {};
  for (const { key } of fields) {
    const control = root?.querySelector<HTMLInputElement>(`#k-${key}`);
    if (control) answers[key] = control.type === 'checkbox' ? control.checked : control.value;
  }
  return answers;
}
