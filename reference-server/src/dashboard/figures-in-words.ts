/**
 * The cockpit's ratios as people read them (docs/insights.md#the-cockpit): a percent, and one
 * plain sentence on what each total means for this list, including when it has no value (a
 * divisor of 0 is "nothing to say yet", never 0 %). Pure: the ratios come from domain/stats.ts.
 */

/** At most `digits` decimals, trailing zeros dropped: 0.25, 1, 12.5. */
function decimals(n: number, digits: number): string {
  return String(Number(n.toFixed(digits)));
}

/** A ratio as a percent: one decimal under 10 % (3.4 %), whole above (42 %). */
export function percent(ratio: number): string {
  const p = ratio * 100;
  return `${decimals(p, p < 10 ? 1 : 0)}%`;
}

/** How many of every 100: the same number as `percent`, without the sign. */
const perHundred = (ratio: number) => percent(ratio).slice(0, -1);

/** A day's or a channel's conversion in a table cell; a dash where nothing was viewed. */
export function conversionCell(conversion: number | null): string {
  return conversion === null ? '—' : percent(conversion);
}

export interface Figure {
  /** The value as shown: a percent, a number, or a dash when there is none. */
  value: string;
  /** What it means for this list, in one sentence. */
  sentence: string;
}

export function conversionFigure(conversion: number | null): Figure {
  if (conversion === null)
    return {
      value: '—',
      sentence:
        'No views were counted in these days, so there is no conversion: the widget counts a view each time a page shows the form.',
    };
  return {
    value: percent(conversion),
    sentence: `${perHundred(conversion)} of every 100 views of the form became a sign-up.`,
  };
}

export function referredShareFigure(share: number | null): Figure {
  if (share === null)
    return { value: '—', sentence: 'Nobody signed up in these days, so there is no share yet.' };
  return {
    value: percent(share),
    sentence: `${perHundred(share)} of every 100 sign-ups came through a friend's link.`,
  };
}

export function kFactorFigure(k: number | null): Figure {
  if (k === null)
    return { value: '—', sentence: 'Nobody signed up in these days, so there is no k-factor yet.' };
  const value = decimals(k, 2);
  return {
    value,
    sentence:
      k >= 1
        ? `Each person who joined brought ${value} more: above 1, the list grows by itself.`
        : `Each person who joined brought ${value} more: below 1, the list grows only as people find the page.`,
  };
}
