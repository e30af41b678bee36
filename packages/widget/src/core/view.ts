/**
 * One view of the form per page load (docs/insights.md#views): what the conversion rate divides
 * by. Nothing about the visitor is sent but the page's source, and nothing is stored on the page.
 */
import type { Source } from '@waitlistkit/protocol';
import { endpoint } from './subscribe.js';

/** The views endpoints this page load has counted: a second form, or a remount, counts nothing. */
const counted = new Set<string>();

/**
 * Counts a view. A string body is sent as text/plain, a request a browser sends cross-origin
 * without a preflight, and `sendBeacon` outlives the page; without it, a `keepalive` fetch.
 */
export function countView(options: { baseUrl: string; waitlistId: string }, source?: Source): void {
  const { url } = endpoint(options, 'views');
  if (counted.has(url)) return;
  counted.add(url);
  const body = JSON.stringify(source ? { source } : {});
  if (!navigator.sendBeacon?.(url, body))
    fetch(url, { method: 'POST', body, keepalive: true, credentials: 'omit' }).catch(() => {});
}
