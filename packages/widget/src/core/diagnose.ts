/**
 * Telling "the server refused this page" from "the server is unreachable". Cross-origin, the
 * service answers a refused origin or an unknown waitlist with a 404 that has no CORS headers,
 * so the browser hides it: fetch rejects with the same TypeError as for a network failure.
 */

/** The page's origin in a browser; `undefined` elsewhere (Node, opaque origins). */
export function pageOrigin(): string | undefined {
  return typeof location !== 'undefined' && /^https?:$/.test(location.protocol) ? location.origin : undefined;
}

/**
 * A `no-cors` POST with a text body is a simple request: no preflight, and the browser lets it
 * through whatever the CORS headers. An opaque answer proves the server is up, so the failed
 * request was refused; another TypeError means the server cannot be reached.
 */
export async function serverAnswers(
  doFetch: typeof fetch,
  url: string,
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    await doFetch(url, { method: 'POST', mode: 'no-cors', credentials: 'omit', body: '{}', signal });
    return true;
  } catch {
    return false;
  }
}

/** What to fix after a 404, for the console: the waitlist id, the origin and the command. */
export function notFoundMessage(waitlistId: string, baseUrl: string, origin: string | undefined): string {
  const from = origin ?? 'ORIGIN';
  return `${baseUrl} answered 404 for waitlist "${waitlistId}" from ${origin ?? 'this client'}: the id is wrong or the waitlist archived, or ${
    origin ? `this page's origin ${origin}` : 'the Origin header (pass `origin` outside browsers)'
  } is not on its allowlist. To allow it: pnpm -s waitlist-server waitlist update --waitlist ${waitlistId} --origins ${from} (naming every origin to keep: the list is replaced).`;
}
