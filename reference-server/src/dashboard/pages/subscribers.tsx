/**
 * Subscribers of a waitlist: the line and the admitted list, one subscriber with everything
 * held about them, and the page before erasing one. Admins get the forms; members get the same
 * facts without them (the app refuses their posts all the same).
 */
import { ADMISSION_MAX, SubscriberStatus } from '@waitlistkit/protocol';
import type { Found } from '../../app/subscribers.js';
import type { ListedSubscriber, ListPage, Waitlist } from '../../domain/records.js';
import type { Page } from '../../web/page.js';
import { Csrf, FieldError, Notice, Table, when } from './parts.js';
import { dashboardPage, type SignedIn } from './shell.js';

export const subscribersPath = (waitlistId: string) => `/dashboard/waitlists/${waitlistId}/subscribers`;
export const subscriberPath = (waitlistId: string, id: string) => `${subscribersPath(waitlistId)}/${id}`;

export interface ListView {
  query: { q: string; page: number; limit: number; status: SubscriberStatus };
  /** What the last action did, said once on the page it redirected to. */
  notice?: string | undefined;
  /** The admission form as last submitted, when it needs fixing. */
  admit?: { count: string; error: string } | undefined;
  /** The admission form's one-time token: the same form posted twice lets people in once. */
  admitOnce: string;
}

function ListTabs({ waitlistId, status }: { waitlistId: string; status: SubscriberStatus }) {
  const tab = (value: SubscriberStatus, label: string) => (
    <li>
      <a
        href={`${subscribersPath(waitlistId)}${value === SubscriberStatus.admitted ? '?status=admitted' : ''}`}
        aria-current={status === value ? 'page' : undefined}
      >
        {label}
      </a>
    </li>
  );
  return (
    <nav aria-label="Lists" class="tabs">
      <ul>
        {tab(SubscriberStatus.waiting, 'Waiting (the line)')}
        {tab(SubscriberStatus.admitted, 'Admitted')}
        <li>
          <a href={`/dashboard/waitlists/${waitlistId}/overview`}>Overview</a>
        </li>
      </ul>
    </nav>
  );
}

function AdmitForm({
  who,
  waitlist,
  form,
  once,
}: {
  who: SignedIn;
  waitlist: Waitlist;
  form: ListView['admit'];
  once: string;
}) {
  const described = ['count-help', form ? 'count-error' : ''].filter(Boolean).join(' ');
  return (
    <section class="card" aria-labelledby="admit-heading">
      <h2 id="admit-heading">Let people in</h2>
      <form method="post" action={`/dashboard/waitlists/${waitlist.id}/admissions`} class="row">
        <Csrf token={who.csrf} />
        <input type="hidden" name="once" value={once} />
        <div class="field">
          <label for="count">How many, first in line first</label>
          <input
            id="count"
            name="count"
            type="number"
            inputMode="numeric"
            required
            min={1}
            max={ADMISSION_MAX}
            step={1}
            value={form?.count ?? ''}
            aria-invalid={form ? 'true' : undefined}
            aria-describedby={described}
          />
          <p id="count-help" class="help">
            1 to {ADMISSION_MAX}. They leave the line and are listed under Admitted.
          </p>
          <FieldError id="count-error" message={form?.error} />
        </div>
        <div class="field">
          <button type="submit">Admit</button>
        </div>
      </form>
    </section>
  );
}

export function subscribersPage(who: SignedIn, waitlist: Waitlist, result: ListPage, view: ListView): Page {
  const { query } = view;
  const admitted = query.status === SubscriberStatus.admitted;
  const base = subscribersPath(waitlist.id);
  const qs = (page: number) =>
    `?${new URLSearchParams({
      ...(admitted ? { status: 'admitted' } : {}),
      ...(query.q ? { q: query.q } : {}),
      page: String(page),
    })}`;
  const last = Math.max(1, Math.ceil(result.total / query.limit));
  const canAdmit = who.operator.role === 'admin' && !waitlist.archived && !admitted;
  return dashboardPage(
    `Subscribers of ${waitlist.name}`,
    who,
    'waitlists',
    <>
      <Notice text={view.notice} />
      {view.admit ? (
        <p class="error" role="alert">
          Nobody was let in: {view.admit.error}
        </p>
      ) : null}
      <ListTabs waitlistId={waitlist.id} status={query.status} />
      <section class="card">
        <search>
          <form method="get" action={base} class="row">
            {admitted ? <input type="hidden" name="status" value="admitted" /> : null}
            <div class="field">
              <label for="q">Search by email</label>
              <input id="q" name="q" type="search" maxLength={254} value={query.q} />
            </div>
            <div class="actions field">
              <button type="submit">Search</button>
              {admitted ? null : (
                <>
                  <a href={`${base}.csv${query.q ? `?q=${encodeURIComponent(query.q)}` : ''}`}>Export CSV</a>
                  {waitlist.archived ? null : (
                    <a href={`/dashboard/waitlists/${waitlist.id}/import`}>Import CSV</a>
                  )}
                </>
              )}
            </div>
          </form>
        </search>
        <Table
          caption={
            <>
              {result.total} {query.q ? 'matching ' : ''}
              {admitted ? 'admitted ' : ''}
              {result.total === 1 ? 'subscriber' : 'subscribers'}
              {admitted ? ', newest admission first' : ''}, page {query.page} of {last}
            </>
          }
          columns={[admitted ? 'Admitted' : 'Position', 'Email', 'Referral code', 'Referrals', 'Joined']}
          rows={result.items.map((s) => (
            <tr key={s.id}>
              <td>{admitted && s.admitted_at ? when(s.admitted_at) : s.position}</td>
              <td>
                <a href={subscriberPath(waitlist.id, s.id)}>{s.email}</a>
              </td>
              <td>{s.referral_code ? <code>{s.referral_code}</code> : '—'}</td>
              <td>{s.referral_count}</td>
              <td>{when(s.joined_at)}</td>
            </tr>
          ))}
        />
        <nav class="pager" aria-label="Pages">
          {query.page > 1 ? <a href={base + qs(query.page - 1)}>Previous page</a> : <span />}
          {query.page < last ? <a href={base + qs(query.page + 1)}>Next page</a> : <span />}
        </nav>
      </section>
      {canAdmit ? <AdmitForm who={who} waitlist={waitlist} form={view.admit} once={view.admitOnce} /> : null}
    </>,
  );
}

function Facts({ s }: { s: ListedSubscriber }) {
  const waiting = s.status === SubscriberStatus.waiting;
  return (
    <dl class="facts">
      <dt>Email</dt>
      <dd>{s.email}</dd>
      <dt>Subscriber id</dt>
      <dd>
        <code>{s.id}</code>
      </dd>
      <dt>Status</dt>
      <dd>{waiting ? 'Waiting' : 'Admitted'}</dd>
      {waiting ? (
        <>
          <dt>Position</dt>
          <dd>{s.position}</dd>
        </>
      ) : null}
      <dt>Joined</dt>
      <dd>{when(s.joined_at)}</dd>
      <dt>Admitted</dt>
      <dd>{s.admitted_at ? when(s.admitted_at) : 'Not yet'}</dd>
      <dt>Referral code</dt>
      <dd>{s.referral_code ? <code>{s.referral_code}</code> : 'None (referrals are off)'}</dd>
      <dt>Referrals credited</dt>
      <dd>{s.referral_count}</dd>
      <dt>Email confirmed</dt>
      <dd>{s.confirmed ? 'Yes' : 'No'}</dd>
    </dl>
  );
}

/** Whom they referred (docs/insights.md#the-cockpit): the newest credited, linked, and how many more. */
function ReferredList({
  waitlist,
  s,
  referred,
}: {
  waitlist: Waitlist;
  s: ListedSubscriber;
  referred: ListPage;
}) {
  const rest = referred.total - referred.items.length;
  // Credits outlive erasure: the referrer keeps the count of people no longer on the list.
  const erased = s.referral_count - referred.total;
  return (
    <section class="card" aria-labelledby="referred-heading">
      <h2 id="referred-heading">Whom they referred</h2>
      <Table
        caption={
          referred.total === 0
            ? 'Nobody on the list was credited to them'
            : `${referred.total} on the list credited to them, newest first`
        }
        columns={['Email', 'Joined', 'Position or status']}
        rows={referred.items.map((r) => (
          <tr key={r.id}>
            <td>
              <a href={subscriberPath(waitlist.id, r.id)}>{r.email}</a>
            </td>
            <td>{when(r.joined_at)}</td>
            <td>{r.status === SubscriberStatus.waiting ? `Position ${r.position}` : 'Admitted'}</td>
          </tr>
        ))}
      />
      {rest > 0 ? <p id="referred-rest">And {rest} more, credited earlier.</p> : null}
      {erased > 0 ? (
        <p class="muted" id="referred-erased">
          {erased} more credited to them {erased === 1 ? 'was' : 'were'} erased since; the credit stays.
        </p>
      ) : null}
    </section>
  );
}

export function subscriberPage(
  who: SignedIn,
  { waitlist, subscriber: s, referred }: Found & { referred: ListPage },
  notice?: string,
): Page {
  const admin = who.operator.role === 'admin';
  const path = subscriberPath(waitlist.id, s.id);
  return dashboardPage(
    s.email,
    who,
    'waitlists',
    <>
      <Notice text={notice} />
      <section class="card" aria-labelledby="facts-heading">
        <h2 id="facts-heading">
          Subscriber of <a href={subscribersPath(waitlist.id)}>{waitlist.name}</a>
        </h2>
        <Facts s={s} />
      </section>
      {waitlist.settings.referrals || s.referral_count > 0 ? (
        <ReferredList waitlist={waitlist} s={s} referred={referred} />
      ) : null}
      {admin ? (
        <section class="card" aria-labelledby="actions-heading">
          <h2 id="actions-heading">Actions</h2>
          {s.status === SubscriberStatus.waiting && !waitlist.archived ? (
            <form method="post" action={`${path}/admit`} class="actions">
              <Csrf token={who.csrf} />
              <button type="submit">Admit</button>
              <span class="muted">Lets them in now: they leave the line.</span>
            </form>
          ) : null}
          <p>
            <a href={`${path}/erase`}>Erase this subscriber…</a>
          </p>
        </section>
      ) : (
        <p class="notice">Only admins can let people in or erase them; you can see what is held.</p>
      )}
    </>,
  );
}

export function erasePage(who: SignedIn, waitlist: Waitlist, s: ListedSubscriber): Page {
  const path = subscriberPath(waitlist.id, s.id);
  return dashboardPage(
    `Erase ${s.email}?`,
    who,
    'waitlists',
    <section class="card">
      <div class="warning">
        <p>Erasing deletes everything held about this person on {waitlist.name}, for good:</p>
        <ul>
          <li>their email address, referral code and status link (which then answers 404);</li>
          <li>their place in the line, if they are waiting: everyone behind them moves up;</li>
          <li>if they sign up again, they are a new subscriber at the end of the line.</li>
        </ul>
        <p>
          Whoever referred them keeps the credit. The activity log records the erasure by the subscriber id{' '}
          <code>{s.id}</code>, never by the address. It cannot be undone.
        </p>
      </div>
      <form method="post" action={`${path}/erase`} class="actions">
        <Csrf token={who.csrf} />
        <button type="submit" class="danger">
          Erase subscriber
        </button>
        <a href={path}>Cancel</a>
      </form>
    </section>,
  );
}
