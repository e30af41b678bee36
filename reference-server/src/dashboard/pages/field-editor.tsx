/** The waitlist's field editor (docs/subscribers.md#fields): a form that works without JavaScript. */
import { FIELD_TYPES } from '@waitlistkit/protocol';
import type { Waitlist } from '../../domain/records.js';
import { BLANK_ROW, type FieldRow } from '../field-editor.js';
import { Csrf, Notice } from './parts.js';

function RowInputs({ row, i, last, count }: { row: FieldRow; i: number; last: boolean; count: number }) {
  const id = (name: string) => `field-${name}-${i}`;
  return (
    <fieldset>
      <legend>{last ? 'Add a field' : `Field ${i + 1}: ${row.label || row.key}`}</legend>
      <div class="field">
        <label for={id('key')}>Key</label>
        <input id={id('key')} name={`key_${i}`} value={row.key} aria-describedby={id('key-help')} />
        <p id={id('key-help')} class="help">
          A lower-case name for the answer: a letter, then letters, digits or _ (at most 32).
        </p>
      </div>
      <div class="field">
        <label for={id('label')}>Label</label>
        <input id={id('label')} name={`label_${i}`} value={row.label} maxLength={80} />
      </div>
      <div class="field">
        <label for={id('type')}>Type</label>
        <select id={id('type')} name={`type_${i}`}>
          {FIELD_TYPES.map((t) => (
            <option value={t} selected={t === row.type}>
              {t}
            </option>
          ))}
        </select>
      </div>
      <div class="check">
        <input id={id('required')} name={`required_${i}`} type="checkbox" checked={row.required} />
        <label for={id('required')}>Required</label>
      </div>
      <div class="field">
        <label for={id('options')}>Options (select only, one per line)</label>
        <textarea id={id('options')} name={`options_${i}`} rows={3}>
          {row.options}
        </textarea>
      </div>
      {last ? null : (
        <p class="actions">
          <button type="submit" class="secondary" name="move" value={`up:${i}`} disabled={i === 0}>
            Move up
          </button>
          <button type="submit" class="secondary" name="move" value={`down:${i}`} disabled={i === count - 1}>
            Move down
          </button>
          <span class="check">
            <input id={id('remove')} name={`remove_${i}`} type="checkbox" />
            <label for={id('remove')}>Remove</label>
          </span>
        </p>
      )}
    </fieldset>
  );
}

export function FieldEditor(props: {
  waitlist: Waitlist;
  csrf: string;
  rows: FieldRow[];
  error?: string | undefined;
  saved?: boolean | undefined;
}) {
  const { rows } = props;
  return (
    <section class="card" aria-labelledby="fields-heading">
      <h2 id="fields-heading">Sign-up fields</h2>
      <p>What the form asks besides the address, in this order (at most ten).</p>
      <Notice text={props.saved ? 'Fields saved.' : undefined} />
      {props.error ? (
        <p class="error" role="alert">
          {props.error} Nothing was saved.
        </p>
      ) : null}
      <form method="post" action={`/dashboard/waitlists/${props.waitlist.id}/fields`}>
        <Csrf token={props.csrf} />
        {[...rows, BLANK_ROW].map((row, i) => (
          <RowInputs key={String(i)} row={row} i={i} last={i === rows.length} count={rows.length} />
        ))}
        <button type="submit">Save fields</button>
      </form>
    </section>
  );
}
