/**
 * Webhook endpoints (docs/webhooks.md#endpoints): the list with the create form, the page that shows a new
 * endpoint's signing secret once, and one endpoint with its recent deliveries. Admins get the
 * forms; members see the same facts without them (the app refuses their posts all the same).
 */
import { WEBHOOK_EVENT_TYPES } from '@waitlistkit/protocol';
import type { Delivery } from '../../app/webhooks.js';
import type { Waitlist, WebhookEndpoint } from '../../domain/records.js';
import type { Page } from '../../web/page.js';
import type { FieldErrors, WebhookForm } from '../forms.js';
import { Csrf, FieldError, Notice, PostButton, ShownOnce, Table, when } from './parts.js';
import { dashboardPage, type SignedIn } from './shell.js';

export const webhookPath = (id: string) => `/dashboard/webhooks/${id}`;

const STATE_LABEL: Record<Delivery['state'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
  // Mail only: webhook deliveries are never dropped, but the state is the outbox's.
  dropped: 'Not needed',
};

const eventsLabel = (e: WebhookEndpoint) => (e.events.length === 0 ? 'All events' : e.events.join(', '));

function waitlistLabel(e: WebhookEndpoint, waitlists: Waitlist[]): string {
  if (e.waitlist_id === null) return 'All waitlists';
  return waitlists.find((w) => w.id === e.waitlist_id)?.name ?? e.waitlist_id;
}

export interface WebhooksView {
  endpoints: WebhookEndpoint[];
  waitlists: Waitlist[];
  form: WebhookForm;
  errors: FieldErrors;
  notice?: string | undefined;
}

export function webhooksPage(who: SignedIn, view: WebhooksView): Page {
  const admin = who.operator.role === 'admin';
  const { endpoints, waitlists } = view;
  return dashboardPage(
    'Webhooks',
    who,
    'webhooks',
    <>
      <Notice text={view.notice} />
      {!admin ? (
        <p class="notice">
          Only admins can create or delete webhook endpoints; you can see them and their deliveries.
        </p>
      ) : null}
      <section class="card">
        <Table
          caption="Webhook endpoints of your organisation"
          columns={['URL', 'Events', 'Waitlist', 'Created', admin && 'Actions']}
          empty="No endpoints yet."
          rows={endpoints.map((e) => (
            <tr key={e.id}>
              <td>
                <a href={webhookPath(e.id)}>{e.url}</a>
              </td>
              <td>{eventsLabel(e)}</td>
              <td>{waitlistLabel(e, waitlists)}</td>
              <td>{when(e.created_at)}</td>
              {admin ? (
                <td>
                  <PostButton
                    action={`${webhookPath(e.id)}/delete`}
                    csrf={who.csrf}
                    label="Delete"
                    name={`Delete ${e.url}`}
                    kind="danger"
                  />
                </td>
              ) : null}
            </tr>
          ))}
        />
      </section>
      {admin ? <CreateForm who={who} view={view} /> : null}
    </>,
  );
}

function CreateForm({ who, view }: { who: SignedIn; view: WebhooksView }) {
  const { form, errors } = view;
  return (
    <section class="card" aria-labelledby="create-webhook-heading">
      <h2 id="create-webhook-heading">Add an endpoint</h2>
      <form method="post" action="/dashboard/webhooks">
        <Csrf token={who.csrf} />
        <div class="field">
          <label for="webhook-url">URL</label>
          <input
            id="webhook-url"
            name="url"
            type="url"
            required
            value={form.url}
            aria-invalid={errors.url ? 'true' : undefined}
            aria-describedby={`webhook-url-help${errors.url ? ' webhook-url-error' : ''}`}
          />
          <p id="webhook-url-help" class="help">
            An https address on the public internet; each event is POSTed to it, signed.
          </p>
          <FieldError id="webhook-url-error" message={errors.url} />
        </div>
        <fieldset aria-describedby={`webhook-events-help${errors.events ? ' webhook-events-error' : ''}`}>
          <legend>Events</legend>
          <p id="webhook-events-help" class="help">
            None checked sends every event.
          </p>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <div class="check" key={type}>
              <input
                id={`event-${type}`}
                type="checkbox"
                name="events"
                value={type}
                checked={form.events.includes(type)}
              />
              <label for={`event-${type}`}>
                <code>{type}</code>
              </label>
            </div>
          ))}
          <FieldError id="webhook-events-error" message={errors.events} />
        </fieldset>
        <div class="field">
          <label for="webhook-waitlist">Waitlist</label>
          <select id="webhook-waitlist" name="waitlist">
            <option value="" selected={form.waitlist === ''}>
              All waitlists
            </option>
            {view.waitlists.map((w) => (
              <option key={w.id} value={w.id} selected={form.waitlist === w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Add endpoint</button>
      </form>
    </section>
  );
}

export function webhookCreatedPage(who: SignedIn, endpoint: WebhookEndpoint, secret: string): Page {
  return dashboardPage(
    'Endpoint added',
    who,
    'webhooks',
    <ShownOnce
      id="webhook-secret"
      warning="Copy the signing secret now. This is the only time it is shown: your receiver needs it to check that deliveries come from us, and it cannot be shown again."
      label={`Signing secret of ${endpoint.url}`}
      value={secret}
      copy="Copy secret"
      copied="Secret copied."
      done={webhookPath(endpoint.id)}
    />,
  );
}

export function webhookGonePage(who: SignedIn): Page {
  return dashboardPage(
    'Endpoint added',
    who,
    'webhooks',
    <section class="card">
      <p class="notice">
        The signing secret was shown once and is no longer available. If you did not copy it, delete the
        endpoint and add another.
      </p>
      <a href="/dashboard/webhooks">Back to webhooks</a>
    </section>,
  );
}

export interface WebhookView {
  endpoint: WebhookEndpoint;
  waitlists: Waitlist[];
  deliveries: Delivery[];
  notice?: string | undefined;
}

export function webhookPage(who: SignedIn, view: WebhookView): Page {
  const { endpoint: e, deliveries } = view;
  // Nothing more goes to a deleted endpoint, so there is nothing to send again.
  const canResend = who.operator.role === 'admin' && e.state === 'active';
  return dashboardPage(
    e.url,
    who,
    'webhooks',
    <>
      <Notice text={view.notice} />
      {e.deleted_at ? (
        <p class="warning">
          Deleted {when(e.deleted_at)}: nothing more is sent to it. Its past deliveries are kept below.
        </p>
      ) : null}
      <section class="card">
        <dl class="facts">
          <dt>Events</dt>
          <dd>{eventsLabel(e)}</dd>
          <dt>Waitlist</dt>
          <dd>{waitlistLabel(e, view.waitlists)}</dd>
          <dt>Created</dt>
          <dd>{when(e.created_at)}</dd>
          <dt>Endpoint id</dt>
          <dd>
            <code>{e.id}</code>
          </dd>
        </dl>
      </section>
      <section class="card">
        <Table
          caption="Recent deliveries, newest first"
          columns={['Event', 'State', 'Created', 'Attempts', canResend && 'Actions']}
          empty="No deliveries yet."
          rows={deliveries.map((d) => (
            <tr key={d.id}>
              <td>
                <code>{d.event_type}</code>
              </td>
              <td>{STATE_LABEL[d.state]}</td>
              <td>{when(d.created_at)}</td>
              <td>
                <Attempts attempts={d.attempts} />
              </td>
              {canResend ? (
                <td>
                  <PostButton
                    action={`${webhookPath(e.id)}/deliveries/${d.id}/resend`}
                    csrf={who.csrf}
                    label="Send again"
                    kind="secondary"
                  />
                </td>
              ) : null}
            </tr>
          ))}
        />
      </section>
      <p>
        <a href="/dashboard/webhooks">Back to webhooks</a>
      </p>
    </>,
  );
}

function Attempts({ attempts }: { attempts: Delivery['attempts'] }) {
  if (attempts.length === 0) return <>None yet</>;
  return (
    <ol>
      {attempts.map((a, i) => (
        <li key={i}>
          {when(a.at, 'second')}: {a.status !== null ? `HTTP ${a.status}` : (a.error ?? 'no answer')},{' '}
          {a.duration_ms} ms
        </li>
      ))}
    </ol>
  );
}
