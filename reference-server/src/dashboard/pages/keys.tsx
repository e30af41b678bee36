import { type Plan, planAllowsApi } from '@waitlistkit/protocol';
import type { ApiKey } from '../../domain/records.js';
import type { Page } from '../../web/page.js';
import { Csrf, NameField, ShownOnce, Table } from './parts.js';
import { dashboardPage, type SignedIn } from './shell.js';

const PRESET_LABEL = { full: 'Full access (read and write)', 'read-only': 'Read-only' } as const;

const day = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : 'never');

export function keysPage(
  who: SignedIn,
  plan: Plan,
  keys: ApiKey[],
  form: { name?: string; error?: string } = {},
): Page {
  const admin = who.operator.role === 'admin';
  const allowed = planAllowsApi(plan);
  return dashboardPage(
    'API keys',
    who,
    'keys',
    <>
      {!allowed ? (
        <p class="notice">
          API access needs the Pro or Team plan. Your organisation is on the {plan} plan, so no keys can be
          created, and existing keys answer 403 until the plan is upgraded.
        </p>
      ) : null}
      {!admin ? <p class="notice">Only admins can create or revoke keys; you can see the list.</p> : null}
      <section class="card">
        <Table
          caption="Keys of your organisation"
          columns={['Name', 'Prefix', 'Scopes', 'State', 'Created', 'Last used', admin && 'Actions']}
          empty="No keys yet."
          rows={keys.map((k) => (
            <tr key={k.id}>
              <td>{k.name}</td>
              <td>
                <code>{k.prefix}…</code>
              </td>
              <td>{k.scopes.join(', ')}</td>
              <td>{k.state === 'active' ? 'Active' : 'Revoked'}</td>
              <td>{day(k.created_at)}</td>
              <td>{day(k.last_used_at)}</td>
              {admin ? (
                <td>
                  {k.state === 'active' ? (
                    <a href={`/dashboard/keys/${k.id}/revoke`} aria-label={`Revoke ${k.name}`}>
                      Revoke…
                    </a>
                  ) : (
                    '—'
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        />
      </section>
      {admin && allowed ? (
        <section class="card" aria-labelledby="create-key-heading">
          <h2 id="create-key-heading">Create a key</h2>
          <form method="post" action="/dashboard/keys">
            <Csrf token={who.csrf} />
            <NameField id="key-name" value={form.name ?? ''} error={form.error} />
            <fieldset>
              <legend>Access</legend>
              {Object.entries(PRESET_LABEL).map(([value, label], i) => (
                <div class="check" key={value}>
                  <input id={`preset-${value}`} type="radio" name="preset" value={value} checked={i === 0} />
                  <label for={`preset-${value}`}>{label}</label>
                </div>
              ))}
            </fieldset>
            <button type="submit">Create key</button>
          </form>
        </section>
      ) : null}
    </>,
  );
}

export function keyCreatedPage(who: SignedIn, key: ApiKey, value: string): Page {
  return dashboardPage(
    'Key created',
    who,
    'keys',
    <ShownOnce
      id="key-value"
      warning="Copy the key now. This is the only time it is shown: it is stored only as a hash and cannot be recovered."
      label={`${key.name} (${key.scopes.join(', ')})`}
      value={value}
      copy="Copy key"
      copied="Key copied."
      done="/dashboard/keys"
    />,
  );
}

export function keyGonePage(who: SignedIn): Page {
  return dashboardPage(
    'Key created',
    who,
    'keys',
    <section class="card">
      <p class="notice">
        The key's value was shown once and is no longer available. If you did not copy it, revoke the key and
        create another.
      </p>
      <a href="/dashboard/keys">Back to API keys</a>
    </section>,
  );
}

export function revokePage(who: SignedIn, key: ApiKey): Page {
  return dashboardPage(
    `Revoke ${key.name}?`,
    who,
    'keys',
    <section class="card">
      <p class="warning">
        Requests with <code>{key.prefix}…</code> get 401 from the moment you revoke it. Keys cannot be
        restored.
      </p>
      <form method="post" action={`/dashboard/keys/${key.id}/revoke`} class="actions">
        <Csrf token={who.csrf} />
        <button type="submit" class="danger">
          Revoke key
        </button>
        <a href="/dashboard/keys">Cancel</a>
      </form>
    </section>,
  );
}
