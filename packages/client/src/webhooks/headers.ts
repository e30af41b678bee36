/** Reading a header from whatever the receiving framework hands over. */

/**
 * The request's headers: a fetch `Headers` (or anything with a `get` like it), Node's
 * `IncomingHttpHeaders` (`req.headers` in Node and Express), or a plain object. Names are
 * matched ignoring case in all of them.
 */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

function hasGet(headers: WebhookHeaders): headers is { get(name: string): string | null } {
  return typeof (headers as { get?: unknown }).get === 'function';
}

/**
 * The value of header `name` (lower case), trimmed, or `undefined` when it is absent or empty.
 * A repeated header given as an array is joined with `, `, as `Headers.get` joins repeated lines.
 */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  let value: string | readonly string[] | null | undefined;
  if (hasGet(headers)) {
    value = headers.get(name);
  } else {
    // Node lower-cases received names, but a plain object written by hand may not.
    const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
    value = key === undefined ? undefined : headers[key];
  }
  const text = (typeof value === 'string' ? value : value?.join(', '))?.trim();
  return text === '' ? undefined : text;
}
