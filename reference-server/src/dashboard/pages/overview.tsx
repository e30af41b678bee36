/**
 * The overview of a waitlist: how many wait and how many were let in, sign-ups per day as a bar
 * chart drawn on the server (no script), and the top referrers. The chart is one image to
 * assistive technology, named by a sentence that sums it up; the same numbers follow as a table.
 */
import { SubscriberStatus } from '@waitlistkit/protocol';
import { TOP_REFERRERS, type WaitlistOverview } from '../../app/overview.js';
import type { DayCount } from '../../domain/days.js';
import type { Page } from '../../web/page.js';
import { barChart, CHART_BOX } from '../chart.js';
import { Table } from './parts.js';
import { dashboardPage, type SignedIn } from './shell.js';
import { subscriberPath, subscribersPath } from './subscribers.js';

const people = (n: number) => `${n} ${n === 1 ? 'sign-up' : 'sign-ups'}`;

/** The sentence that names the chart: its range, its total and its busiest day. */
function summary(days: DayCount[]): string {
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const first = days[0]?.day ?? '';
  const lastDay = days.at(-1)?.day ?? '';
  if (total === 0) return `Sign-ups per day from ${first} to ${lastDay}: none.`;
  const busiest = days.reduce((a, b) => (b.count > a.count ? b : a));
  return `Sign-ups per day from ${first} to ${lastDay}: ${total} in total, most on ${busiest.day} (${busiest.count}).`;
}

function Chart({ days }: { days: DayCount[] }) {
  const chart = barChart(days.map((d) => d.count));
  const { width, height, left } = CHART_BOX;
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby="chart-title"
      focusable="false"
    >
      <title id="chart-title">{summary(days)}</title>
      {chart.ticks.map((t) => (
        <g key={t.value}>
          <line class="grid" x1={left} x2={chart.right} y1={t.y} y2={t.y} />
          <text class="tick" x={left - 6} y={t.y}>
            {t.value}
          </text>
        </g>
      ))}
      {chart.bars.map((bar, i) => {
        const day = days[i] as DayCount;
        return (
          <g key={day.day}>
            <rect class="bar" x={bar.x} y={bar.y} width={bar.width} height={bar.height}>
              <title>{`${day.day}: ${people(day.count)}`}</title>
            </rect>
            {bar.labelled ? (
              <text class="day" x={bar.x + bar.width / 2} y={height - 6}>
                {day.day.slice(5)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

export function overviewPage(who: SignedIn, overview: WaitlistOverview): Page {
  const { waitlist, days, topReferrers } = overview;
  const list = subscribersPath(waitlist.id);
  return dashboardPage(
    `Overview of ${waitlist.name}`,
    who,
    'waitlists',
    <>
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
      <section class="card" aria-labelledby="signups-heading">
        <h2 id="signups-heading">Sign-ups per day</h2>
        <p class="muted">
          The last {days.length} days by UTC date, today last. Admitted subscribers are counted; erased ones
          are not, since nothing of them is kept.
        </p>
        <Chart days={days} />
        <details>
          <summary>The same numbers as a table</summary>
          <Table
            caption="Sign-ups per day (UTC)"
            columns={['Day', 'Sign-ups']}
            rows={days.map((d) => (
              <tr key={d.day}>
                <td>
                  <time dateTime={d.day}>{d.day}</time>
                </td>
                <td>{d.count}</td>
              </tr>
            ))}
          />
        </details>
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
