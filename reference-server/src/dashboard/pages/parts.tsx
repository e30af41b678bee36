/**
 * The parts every dashboard page is made of: tables, times, notices, fields and their errors,
 * one-button forms, and the one page that shows a secret.
 */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/** A stored time as people read it, in UTC, to the minute or (for things a second apart) the second. */
export function when(iso: string, to: 'minute' | 'second' = 'minute') {
  return <time dateTime={iso}>{`${iso.slice(0, to === 'minute' ? 16 : 19).replace('T', ' ')} UTC`}</time>;
}

/**
 * A table as the dashboard shows them: scrolling sideways on a narrow screen, a caption, column
 * headings (a `false` one is left out), and `empty` in one row when there are no rows (none
 * given: the caption says so, or there are always rows). The box that scrolls is a region named
 * by the caption and reachable by keyboard, so a table wider than a phone scrolls by itself,
 * not the page, for every way of reading it.
 */
export function Table(props: {
  caption: ComponentChildren;
  columns: (string | false)[];
  empty?: string;
  rows: ComponentChildren[];
}) {
  const columns = props.columns.filter((c): c is string => c !== false);
  const caption = useId();
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable by keyboard (WCAG 2.1.1).
    <section class="table-wrap" aria-labelledby={caption} tabIndex={0}>
      <table>
        <caption id={caption}>{props.caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" key={c}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.length === 0 && props.empty !== undefined ? (
            <tr>
              <td colSpan={columns.length}>{props.empty}</td>
            </tr>
          ) : (
            props.rows
          )}
        </tbody>
      </table>
    </section>
  );
}

/** A form of one button posting to `action`: an action that needs no input but the session's token. */
export function PostButton(props: {
  action: string;
  csrf: string;
  label: string;
  /** The button's name for assistive technology, when the label alone does not say what it acts on. */
  name?: string;
  kind: 'danger' | 'secondary';
}) {
  return (
    <form method="post" action={props.action}>
      <Csrf token={props.csrf} />
      <button type="submit" class={props.kind} aria-label={props.name}>
        {props.label}
      </button>
    </form>
  );
}

/**
 * A secret on the one page that shows it: the warning, the value (always selectable; a copy
 * button once the page's script runs), and the way on.
 */
export function ShownOnce(props: {
  id: string;
  warning: string;
  label: ComponentChildren;
  value: string;
  copy: string;
  copied: string;
  done: string;
}) {
  return (
    <section class="card">
      <p class="warning">{props.warning}</p>
      <label for={props.id}>{props.label}</label>
      <input id={props.id} readOnly value={props.value} />
      <p class="actions">
        <button type="button" data-copy={props.id} data-copied={props.copied} hidden>
          {props.copy}
        </button>
        <a href={props.done}>Done</a>
      </p>
    </section>
  );
}

/** What the last action did, said once on the page it led to. */
export function Notice({ text }: { text: string | undefined }) {
  return text ? (
    <p class="notice" role="status">
      {text}
    </p>
  ) : null;
}

export function Csrf({ token }: { token: string }) {
  return <input type="hidden" name="_csrf" value={token} />;
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} class="error">
      {message}
    </p>
  ) : null;
}

/** A required name input with its label and, when the last submit failed, its error. */
export function NameField({ id, value, error }: { id: string; value: string; error: string | undefined }) {
  return (
    <div class="field">
      <label for={id}>Name</label>
      <input
        id={id}
        name="name"
        required
        maxLength={200}
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
