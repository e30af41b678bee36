import type { Waitlist } from '../../domain/records.js';
import { SETTING_FIELDS, type SettingField } from '../../domain/setting-fields.js';
import type { Page } from '../../web/page.js';
import { type FieldRow, rowsOf } from '../field-editor.js';
import type { FieldErrors, FormValues } from '../forms.js';
import { FieldEditor } from './field-editor.js';
import { Csrf, FieldError, NameField, Notice, Table } from './parts.js';
import { dashboardPage, type SignedIn } from './shell.js';

export function waitlistsPage(
  who: SignedIn,
  waitlists: Waitlist[],
  form: { name?: string; error?: string } = {},
): Page {
  return dashboardPage(
    'Waitlists',
    who,
    'waitlists',
    <>
      <section class="card">
        <Table
          caption="Waitlists of your organisation"
          columns={['Name', 'Waitlist id', 'State', 'Subscribers']}
          empty="No waitlists yet."
          rows={waitlists.map((w) => (
            <tr key={w.id}>
              <td>
                <a href={`/dashboard/waitlists/${w.id}`}>{w.name}</a>
              </td>
              <td>
                <code>{w.id}</code>
              </td>
              <td>{w.archived ? 'Archived' : 'Active'}</td>
              <td>
                <a href={`/dashboard/waitlists/${w.id}/subscribers`}>View subscribers</a>
              </td>
            </tr>
          ))}
        />
      </section>
      <section class="card" aria-labelledby="create-heading">
        <h2 id="create-heading">Create a waitlist</h2>
        <form method="post" action="/dashboard/waitlists">
          <Csrf token={who.csrf} />
          <NameField id="name" value={form.name ?? ''} error={form.error} />
          <button type="submit">Create waitlist</button>
        </form>
      </section>
    </>,
  );
}

function SettingInput({ f, value, error }: { f: SettingField; value: string; error: string | undefined }) {
  const id = `setting-${f.key}`;
  const described = [`${id}-help`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  if (f.kind === 'switch') {
    return (
      <div class="check">
        <input id={id} name={f.key} type="checkbox" checked={value === 'on'} aria-describedby={described} />
        <label for={id}>{f.label}</label>
        <span id={`${id}-help`} class="muted">
          ({f.help})
        </span>
      </div>
    );
  }
  return (
    <div class="field">
      <label for={id}>{f.label}</label>
      {f.kind === 'int' ? (
        <input
          id={id}
          name={f.key}
          type="number"
          inputMode="numeric"
          min={f.min}
          max={f.max}
          step={1}
          value={value}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={described}
        />
      ) : f.kind === 'text' ? (
        <input
          id={id}
          name={f.key}
          type="url"
          placeholder={f.placeholder}
          value={value}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={described}
        />
      ) : f.kind === 'choice' ? (
        <select id={id} name={f.key} aria-invalid={error ? 'true' : undefined} aria-describedby={described}>
          {f.values.map((v) => (
            <option value={v} selected={v === value}>
              {v}
            </option>
          ))}
        </select>
      ) : (
        <textarea
          id={id}
          name={f.key}
          rows={3}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={described}
        >
          {value}
        </textarea>
      )}
      <p id={`${id}-help`} class="help">
        {f.kind === 'list' ? 'One per line or separated by commas: ' : ''}
        {f.help}
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export interface SetupProps {
  waitlist: Waitlist;
  snippet: string;
  values: FormValues;
  errors: FieldErrors;
  formError?: string | undefined;
  saved?: boolean;
  /** The server has no SMTP: confirmation mail would wait (docs/self-hosting.md#mail). */
  mailWaits?: boolean;
  /** The field editor as it was posted, when it was refused; else the waitlist's fields. */
  fieldRows?: FieldRow[];
  fieldsError?: string;
  fieldsSaved?: boolean;
}

export function waitlistPage(who: SignedIn, props: SetupProps): Page {
  const { waitlist } = props;
  const groups: { legend: string; keys: string[] }[] = [
    { legend: 'Referrals', keys: ['referrals', 'referral_boost'] },
    { legend: 'Public sign-up', keys: ['origins', 'ip_limit'] },
    {
      legend: 'Bot protection',
      keys: [
        'challenge',
        'challenge_min_age_ms',
        'pow',
        'pow_difficulty',
        'pow_adaptive',
        'pow_surge_threshold',
      ],
    },
    {
      legend: 'Email checks',
      keys: ['email_throttle', 'mx_check', 'block_disposable', 'disposable_domains', 'dedupe'],
    },
    { legend: 'Email confirmation (double opt-in)', keys: ['confirm_email'] },
    { legend: 'Geo rules (an allow list or a deny list, not both)', keys: ['geo_allow', 'geo_deny'] },
    { legend: 'Messages', keys: ['access_url'] },
    { legend: 'Language', keys: ['default_lang'] },
  ];
  return dashboardPage(
    waitlist.name,
    who,
    'waitlists',
    <>
      <section class="card" aria-labelledby="id-heading">
        <h2 id="id-heading">Waitlist id</h2>
        <p>
          <code id="waitlist-id">{waitlist.id}</code>{' '}
          <button
            type="button"
            class="secondary"
            data-copy="waitlist-id"
            data-copied="Waitlist id copied."
            hidden
          >
            Copy id
          </button>
        </p>
        {waitlist.archived ? (
          <p class="warning">This waitlist is archived: both APIs answer 404 for it.</p>
        ) : null}
        <p class="actions">
          <a href={`/dashboard/waitlists/${waitlist.id}/subscribers`}>View subscribers</a>
          <a href={`/dashboard/waitlists/${waitlist.id}/overview`}>Overview: sign-ups and top referrers</a>
          <a href={`/dashboard/waitlists/${waitlist.id}/messages`}>Messages: welcome, referral, admitted</a>
        </p>
      </section>
      <section class="card" aria-labelledby="snippet-heading">
        <h2 id="snippet-heading">Add the sign-up form to your site</h2>
        <p>
          Paste this where the form should appear. The page's origin must be on the allowed origins below.
        </p>
        <label for="snippet">Script tag</label>
        <textarea id="snippet" readOnly rows={3}>
          {props.snippet}
        </textarea>
        <p>
          <button type="button" data-copy="snippet" data-copied="Snippet copied." hidden>
            Copy snippet
          </button>
        </p>
      </section>
      <section class="card" aria-labelledby="settings-heading">
        <h2 id="settings-heading">Settings</h2>
        <Notice text={props.saved ? 'Settings saved.' : undefined} />
        {props.mailWaits && waitlist.settings.confirm_email ? (
          <p class="error" role="alert">
            Email confirmation is on, but this server has no WAITLIST_SMTP_URL: confirmation emails wait
            unsent until a server with SMTP runs. Set WAITLIST_SMTP_URL and WAITLIST_MAIL_FROM.
          </p>
        ) : null}
        {props.formError ? (
          <p class="error" role="alert">
            {props.formError}
          </p>
        ) : null}
        {Object.keys(props.errors).length > 0 ? (
          <p class="error" role="alert">
            Some settings need fixing; nothing was saved.
          </p>
        ) : null}
        <form method="post" action={`/dashboard/waitlists/${waitlist.id}`}>
          <Csrf token={who.csrf} />
          <NameField id="name" value={props.values.name ?? waitlist.name} error={props.errors.name} />
          {groups.map((g) => (
            <fieldset key={g.legend}>
              <legend>{g.legend}</legend>
              {g.keys.map((key) => {
                const f = SETTING_FIELDS.find((x) => x.key === key) as SettingField;
                return (
                  <SettingInput key={key} f={f} value={props.values[key] ?? ''} error={props.errors[key]} />
                );
              })}
            </fieldset>
          ))}
          <button type="submit">Save settings</button>
        </form>
      </section>
      <FieldEditor
        waitlist={waitlist}
        csrf={who.csrf}
        rows={props.fieldRows ?? rowsOf(waitlist.settings.fields)}
        error={props.fieldsError}
        saved={props.fieldsSaved}
      />
      {waitlist.archived ? null : (
        <section class="card" aria-labelledby="archive-heading">
          <h2 id="archive-heading">Archive</h2>
          <p>Archiving stops sign-ups and API access to this waitlist.</p>
          <a href={`/dashboard/waitlists/${waitlist.id}/archive`}>Archive this waitlist…</a>
        </section>
      )}
    </>,
  );
}

export function archivePage(who: SignedIn, waitlist: Waitlist): Page {
  return dashboardPage(
    `Archive ${waitlist.name}?`,
    who,
    'waitlists',
    <section class="card">
      <p class="warning">
        Archiving <strong>{waitlist.name}</strong> (<code>{waitlist.id}</code>) makes both the public endpoint
        and the API answer 404 for it. It cannot be undone here.
      </p>
      <form method="post" action={`/dashboard/waitlists/${waitlist.id}/archive`} class="actions">
        <Csrf token={who.csrf} />
        <button type="submit" class="danger">
          Archive waitlist
        </button>
        <a href={`/dashboard/waitlists/${waitlist.id}`}>Cancel</a>
      </form>
    </section>,
  );
}
