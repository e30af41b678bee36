import type { ActivityEntry } from '../../domain/records.js';
import type { Page } from '../../web/page.js';
import { Table } from './parts.js';
import { dashboardPage, type SignedIn } from './shell.js';

const ACTIONS: Record<string, string> = {
  'key.created': 'created a key',
  'key.revoked': 'revoked a key',
  'key.create_refused': 'was refused creating a key',
  'key.revoke_refused': 'was refused revoking a key',
  'subscriber.created': 'created a subscriber',
  'subscriber.matched': 'signed up an existing subscriber',
  'subscriber.admitted': 'let subscribers in',
  'subscriber.admit_refused': 'was refused letting subscribers in',
  'subscriber.erased': 'erased a subscriber',
  'subscriber.erase_refused': 'was refused erasing a subscriber',
  'subscriber.imported': 'imported subscribers',
  'subscriber.import_refused': 'was refused importing subscribers',
  'webhook.created': 'added a webhook endpoint',
  'webhook.deleted': 'deleted a webhook endpoint',
  'webhook.resent': 'sent a delivery again',
  'webhook.create_refused': 'was refused adding a webhook endpoint',
  'webhook.delete_refused': 'was refused deleting a webhook endpoint',
  'webhook.resend_refused': 'was refused sending a delivery again',
  'message.updated': 'changed a message',
  'message.update_refused': 'was refused changing a message',
  'message.test_sent': 'sent themselves a test of a message',
};

export interface ActivityFilterForm {
  actor: '' | 'operator' | 'key';
  action: '' | 'key' | 'subscriber';
}

function describe(entry: ActivityEntry): string {
  const admitted = entry.details.admitted;
  if (entry.action === 'subscriber.admitted' && typeof admitted === 'number')
    return `let ${admitted} ${admitted === 1 ? 'subscriber' : 'subscribers'} in`;
  const name = typeof entry.details.name === 'string' ? ` “${entry.details.name}”` : '';
  return `${ACTIONS[entry.action] ?? entry.action}${entry.action.startsWith('key.') ? name : ''}`;
}

export function activityPage(
  who: SignedIn,
  entries: ActivityEntry[],
  filter: ActivityFilterForm,
  next: number | undefined,
): Page {
  const params = (extra: Record<string, string>) =>
    `?${new URLSearchParams({ ...(filter.actor ? { actor: filter.actor } : {}), ...(filter.action ? { action: filter.action } : {}), ...extra })}`;
  return dashboardPage(
    'Activity',
    who,
    'activity',
    <section class="card">
      <form method="get" action="/dashboard/activity" class="row">
        <div class="field">
          <label for="actor">Actor</label>
          <select id="actor" name="actor">
            <option value="" selected={filter.actor === ''}>
              Anyone
            </option>
            <option value="operator" selected={filter.actor === 'operator'}>
              Operators
            </option>
            <option value="key" selected={filter.actor === 'key'}>
              API keys
            </option>
          </select>
        </div>
        <div class="field">
          <label for="action">Action</label>
          <select id="action" name="action">
            <option value="" selected={filter.action === ''}>
              Everything
            </option>
            <option value="key" selected={filter.action === 'key'}>
              Key creations and revocations
            </option>
            <option value="subscriber" selected={filter.action === 'subscriber'}>
              Subscribers: sign-ups, admissions, erasures
            </option>
          </select>
        </div>
        <div class="field">
          <button type="submit">Filter</button>
        </div>
      </form>
      <Table
        caption="Newest first"
        columns={['When', 'Who', 'What', 'Subject']}
        empty="Nothing recorded."
        rows={entries.map((e) => (
          <tr key={e.id}>
            <td>
              <time dateTime={e.at}>{e.at.slice(0, 19).replace('T', ' ')}</time>
            </td>
            <td>
              {e.actor.name} <span class="muted">({e.actor.type === 'key' ? 'API key' : 'operator'})</span>
            </td>
            <td>{describe(e)}</td>
            <td>
              <code>{e.subject_id ?? '—'}</code>
            </td>
          </tr>
        ))}
      />
      {next !== undefined ? (
        <nav class="pager" aria-label="Pages">
          <span />
          <a href={`/dashboard/activity${params({ before: String(next) })}`}>Older entries</a>
        </nav>
      ) : null}
    </section>,
  );
}
