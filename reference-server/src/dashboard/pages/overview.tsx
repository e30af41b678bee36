/**
 * The overview of a waitlist, the launch's cockpit (docs/insights.md#the-cockpit): the figures
 * of a range of days as the stats endpoint answers them (views, sign-ups and conversion per day
 * as two drawings and one table, the channels, referred share and k-factor each with what it
 * means), how many wait and were let in, and the top referrers. Read on a phone as much as on a
 * desk: every table scrolls in its own box, never the page.
 */
import { SubscriberStatus } from '@waitlistkit/protocol';
import { TOP_REFERRERS, type WaitlistOverview } from '../../app/overview.js';
import { conversionOf } from '../../domain/stats.js';
import type { Page } from '../../web/page.js';
import {
  conversionCell,
  conversionFigure,
  type Figure,
  kFactorFigure,
  referredShareFigure,
} from '../figures-in-words.js';
import { ConversionChart, CountsChart } from './overview-chart.js';
import { FieldError, Table } from './parts.js';
import { dashboardPage, type SignedIn } from './shell.js';
import { subscriberPath, subscribersPath } from './subscribers.js';

const DAY_MS = 86_400_000;

/** The ranges offered as links: what a founder checks most (a week, a month, a quarter). */
export const QUICK_RANGES = [7, 30, 90] as const;

export interface RangeView {
  /** Today, UTC, `YYYY-MM-DD`: where the quick ranges end. */
  today: string;
  /** A range the stats refused, as it was asked, and why; the page then shows the default range. */
  refused?:
    | { from?: string | undefined; to?: string | undefined; field: string; message: string }
    | undefined;
}

const daysBefore = (date: string, n: number) =>
  new Date(Date.parse(date) - n * DAY_MS).toISOString().slice(0, 10);

function RangeForm({
  path,
  shown,
  view,
}: {
  path: string;
  shown: { from: string; to: string; count: number };
  view: RangeView;
}) {
  const { refused } = view;
  const value = (field: 'from' | 'to') => (refused ? (refused[field] ?? '') : shown[field]);
  const bad = (field: 'from' | 'to') =>
    refused?.field === field ? { 'aria-invalid': 'true' as const, 'aria-describedby': 'range-error' } : {};
  return (
    <section class="card" aria-labelledby="range-heading">
      <h2 id="range-heading">Days shown</h2>
      <nav aria-label="Ranges" class="tabs">
        <ul>
          {QUICK_RANGES.map((n) => {
            const current = !refused && shown.to === view.today && shown.count === n;
            return (
              <li key={n}>
                <a
                  href={`${path}?from=${daysBefore(view.today, n - 1)}&to=${view.today}`}
                  aria-current={current ? 'page' : undefined}
                >
                  Last {n} days
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <form method="get" action={path} class="row">
        <div class="field">
          <label for="from">From (UTC)</label>
          <input id="from" name="from" type="date" value={value('from')} {...bad('from')} />
        </div>
        <div class="field">
          <label for="to">To (UTC)</label>
          <input id="to" name="to" type="date" value={value('to')} {...bad('to')} />
        </div>
        <div class="field">
          <button type="submit">Show</button>
        </div>
      </form>
      <p class="help muted">Both days included, at most 366 days.</p>
      {refused ? (
        <div role="alert">
          <FieldError id="range-error" message={`${refused.message} Showing the last 30 days instead.`} />
        </div>
      ) : null}
    </section>
  );
}

function FigureRow({ term, id, figure }: { term: string; id: string; figure: Figure }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>
        <strong id={id}>{figure.value}</strong> <span class="muted">{figure.sentence}</span>
      </dd>
    </>
  );
}

export function overviewPage(who: SignedIn, overview: WaitlistOverview, view: RangeView): Page {
  const { waitlist, stats, topReferrers } = overview;
  const { days, channels, totals } = stats;
  const list = subscribersPath(waitlist.id);
  const path = `/dashboard/waitlists/${waitlist.id}/overview`;
  const shown = { from: days[0]?.date ?? '', to: days.at(-1)?.date ?? '', count: days.length };
  return dashboardPage(
    `Overview of ${waitlist.name}`,
    who,
    'waitlists',
    <>
      <RangeForm path={path} shown={shown} view={view} />
      <section class="card" aria-labelledby="totals-heading">
        <h2 id="totals-heading">
          From <time dateTime={shown.from}>{shown.from}</time> to <time dateTime={shown.to}>{shown.to}</time>
        </h2>
        <dl class="facts figures">
          <dt>Views</dt>
          <dd id="views-total">{totals.views}</dd>
          <dt>Sign-ups</dt>
          <dd id="signups-total">{totals.signups}</dd>
          <FigureRow term="Conversion" id="conversion" figure={conversionFigure(totals.conversion)} />
          <FigureRow
            term="Referred share"
            id="referred-share"
            figure={referredShareFigure(totals.referred_share)}
          />
          <FigureRow term="K-factor" id="k-factor" figure={kFactorFigure(totals.k_factor)} />
        </dl>
      </section>
      <section class="card" aria-labelledby="signups-heading">
        <h2 id="signups-heading">Views, sign-ups and conversion per day</h2>
        <p class="muted">
          By UTC date, today last. Counted as they happened: erasing someone later does not change a past day.
        </p>
        <figure>
          <figcaption>Views (pale) and sign-ups (dark)</figcaption>
          <CountsChart days={days} />
        </figure>
        <figure>
          <figcaption>Conversion: sign-ups ÷ views</figcaption>
          <ConversionChart days={days} />
        </figure>
        <details>
          <summary>The same numbers as a table</summary>
          <Table
            caption="Views, sign-ups and conversion per day (UTC)"
            columns={['Day', 'Views', 'Sign-ups', 'Conversion']}
            rows={days.map((d) => (
              <tr key={d.date}>
                <td>
                  <time dateTime={d.date}>{d.date}</time>
                </td>
                <td>{d.views}</td>
                <td>{d.signups}</td>
                <td>{conversionCell(conversionOf(d.signups, d.views))}</td>
              </tr>
            ))}
          />
        </details>
      </section>
      <section class="card" aria-labelledby="channels-heading">
        <h2 id="channels-heading">Channels</h2>
        <Table
          caption="Where views and sign-ups came from, most sign-ups first"
          columns={['Channel', 'Views', 'Sign-ups', 'Conversion']}
          empty="Nothing was counted in these days."
          rows={channels.map((c) => (
            <tr key={c.channel}>
              <th scope="row">{c.channel}</th>
              <td>{c.views}</td>
              <td>{c.signups}</td>
              <td>{conversionCell(conversionOf(c.signups, c.views))}</td>
            </tr>
          ))}
        />
        <p class="muted">
          A channel is the <code>utm_source</code> of the page, else the site a visitor came from, else{' '}
          <code>direct</code>; <code>referral</code> is a friend's link. A dash: no views were counted for it.
        </p>
      </section>
      <section class="card" aria-labelledby="counts-heading">
        <h2 id="counts-heading">Subscribers now</h2>
        <dl class="facts">
          <dt>Waiting</dt>
          <dd>
            <a href={list} id="waiting-count">
              {overview.waiting}
            </a>
          </dd>
          <dt>Admitted</dt>
          <dd>
            <a href={`${list}?status=admitted`} id="admitted-count">
              {overview.admitted}
            </a>
          </dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="referrers-heading">
        <h2 id="referrers-heading">Top referrers</h2>
        <Table
          caption={`Most credited referrals first, ${TOP_REFERRERS} at most`}
          columns={['Email', 'Referrals', 'Position or status']}
          empty="Nobody has referred anyone yet."
          rows={topReferrers.map((s) => (
            <tr key={s.id}>
              <td>
                <a href={subscriberPath(waitlist.id, s.id)}>{s.email}</a>
              </td>
              <td>{s.referral_count}</td>
              <td>{s.status === SubscriberStatus.waiting ? `Position ${s.position}` : 'Admitted'}</td>
            </tr>
          ))}
        />
      </section>
    </>,
  );
}
