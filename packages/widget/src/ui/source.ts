/**
 * Where the visitor came from, as the form tells the service (docs/subscribers.md#attribution):
 * the page's `utm_*` parameters, the referring page and the page itself. Nothing else about the
 * visitor. Pure: the form passes `location.href` and `document.referrer`.
 */
import {
  keptSource,
  SOURCE_KEYS,
  SOURCE_VALUE_MAX,
  type Source,
  type SourceKey,
} from '@waitlistkit/protocol';

export function pageSource(href: string, referrer: string): Source {
  const source: Source = { referrer, landing: href };
  const query = new URL(href).searchParams;
  for (const key of SOURCE_KEYS) if (key.startsWith('utm_')) source[key] = query.get(key) ?? '';
  // Pages as origin + path, as the service keeps them: a query string (which may carry an
  // address or a token) never leaves the page. Empty values go.
  const kept = keptSource(source);
  // A longer value is left out, never cut: a cut campaign name would be a different one.
  for (const key in kept)
    if (kept[key as SourceKey]!.length > SOURCE_VALUE_MAX) delete kept[key as SourceKey];
  return kept;
}
