/**
 * The overview's days drawn on the server (no script): views and sign-ups as bars on one scale,
 * and conversion as a line. Each drawing is one image to assistive technology, named by a
 * sentence that sums it up and described by how to read it; the same numbers follow as a table
 * (overview.tsx), which is their text alternative.
 */
import type { Stats } from '@waitlistkit/protocol';
import { conversionOf } from '../../domain/stats.js';
import { barChart, CHART_BOX, lineChart, niceCeiling } from '../chart.js';
import { conversionCell } from '../figures-in-words.js';

type Day = Stats['days'][number];

const signups = (n: number) => `${n} ${n === 1 ? 'sign-up' : 'sign-ups'}`;
const views = (n: number) => `${n} ${n === 1 ? 'view' : 'views'}`;

/** The sentence that names the bars: the range, its sign-ups and busiest day, and its views. */
export function countsSummary(days: readonly Day[]): string {
  const first = days[0]?.date ?? '';
  const last = days.at(-1)?.date ?? '';
  const total = days.reduce((sum, d) => sum + d.signups, 0);
  const seen = days.reduce((sum, d) => sum + d.views, 0);
  const head = `Sign-ups per day from ${first} to ${last}:`;
  if (total === 0) return `${head} none; ${views(seen)}.`;
  const busiest = days.reduce((a, b) => (b.signups > a.signups ? b : a));
  return `${head} ${total} in total, most on ${busiest.date} (${busiest.signups}); ${views(seen)}.`;
}

/** The sentence that names the line: the best day's conversion, or why there is none. */
export function conversionSummary(days: readonly Day[]): string {
  const head = `Conversion per day from ${days[0]?.date ?? ''} to ${days.at(-1)?.date ?? ''}:`;
  const viewed = days.filter((d) => d.views > 0);
  if (viewed.length === 0) return `${head} no views were counted, so none.`;
  const best = viewed.reduce((a, b) =>
    (conversionOf(b.signups, b.views) ?? 0) > (conversionOf(a.signups, a.views) ?? 0) ? b : a,
  );
  return `${head} highest on ${best.date} (${conversionCell(conversionOf(best.signups, best.views))}), on ${viewed.length} of ${days.length} days with views.`;
}

const { width, height, left } = CHART_BOX;

function DayLabel({ x, date }: { x: number; date: string }) {
  return (
    <text class="day" x={x} y={height - 6}>
      {date.slice(5)}
    </text>
  );
}

export function CountsChart({ days }: { days: readonly Day[] }) {
  // One scale for both, so a sign-up bar reads against the views of its day.
  const max = niceCeiling(Math.max(0, ...days.flatMap((d) => [d.views, d.signups])));
  const seen = barChart(
    days.map((d) => d.views),
    CHART_BOX,
    { max, share: 0.8 },
  );
  const joined = barChart(
    days.map((d) => d.signups),
    CHART_BOX,
    { max, share: 0.4 },
  );
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby="chart-title"
      aria-describedby="chart-desc"
      focusable="false"
    >
      <title id="chart-title">{countsSummary(days)}</title>
      <desc id="chart-desc">
        For each UTC day, oldest first: a wide pale bar for the views of the form and a narrow dark bar for
        the sign-ups, on one scale.
      </desc>
      {joined.ticks.map((t) => (
        <g key={t.value}>
          <line class="grid" x1={left} x2={joined.right} y1={t.y} y2={t.y} />
          <text class="tick" x={left - 6} y={t.y}>
            {t.value}
          </text>
        </g>
      ))}
      {days.map((day, i) => {
        const v = seen.bars[i];
        const s = joined.bars[i];
        if (!v || !s) return null;
        return (
          <g key={day.date}>
            <title>{`${day.date}: ${views(day.views)}, ${signups(day.signups)}`}</title>
            <rect class="views" x={v.x} y={v.y} width={v.width} height={v.height} />
            <rect class="bar" x={s.x} y={s.y} width={s.width} height={s.height} />
            {s.labelled ? <DayLabel x={s.x + s.width / 2} date={day.date} /> : null}
          </g>
        );
      })}
    </svg>
  );
}

export function ConversionChart({ days }: { days: readonly Day[] }) {
  const line = lineChart(days.map((d) => conversionOf(d.signups, d.views)));
  return (
    <svg
      class="chart conversion"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby="conversion-title"
      aria-describedby="conversion-desc"
      focusable="false"
    >
      <title id="conversion-title">{conversionSummary(days)}</title>
      <desc id="conversion-desc">
        For each UTC day with views, oldest first, a point at its sign-ups divided by its views, in percent; a
        day without views has no point and breaks the line.
      </desc>
      {line.ticks.map((t) => (
        <g key={t.value}>
          <line class="grid" x1={left} x2={line.right} y1={t.y} y2={t.y} />
          <text class="tick" x={left - 6} y={t.y}>
            {`${t.value}%`}
          </text>
        </g>
      ))}
      {line.path ? <path class="line" d={line.path} /> : null}
      {days.map((day, i) => {
        const p = line.points[i];
        const mid = left + ((line.right - left) / days.length) * (i + 0.5);
        return (
          <g key={day.date}>
            {p ? (
              <circle class="point" cx={p.x} cy={p.y} r={3}>
                <title>{`${day.date}: ${conversionCell(conversionOf(day.signups, day.views))}`}</title>
              </circle>
            ) : null}
            {line.labelled[i] ? <DayLabel x={mid} date={day.date} /> : null}
          </g>
        );
      })}
    </svg>
  );
}
