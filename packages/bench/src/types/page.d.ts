/** What the Chromium items' scripts keep on the page's `window` (page.evaluate runs in the page). */
interface Window {
  /** Items 3 and 9: when the visitor clicked, how long to `waitlist:success`, or the error shown. */
  clickedAt?: number;
  took?: number;
  failed?: string;
  /** Item 11: the widget's solver, bundled for the browser. */
  WaitlistBench: { solvePow: typeof import('@waitlistkit/widget').solvePow };
  /** Item 11: the same loop timed in a dedicated worker and on the main thread. */
  probe: Record<
    'worker' | 'main',
    (ms: number) => { rounds: number; ms: number } | Promise<{ rounds: number; ms: number }>
  >;
}
