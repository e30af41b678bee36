/** Origins of the public endpoint's allowlist, compared in their serialised form (RFC 6454). */

/** `scheme://host[:port]` of an http(s) origin; throws with a readable reason otherwise. */
export function parseOrigin(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new Error(`${JSON.stringify(input)} is not an origin like https://example.com.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${JSON.stringify(input)} is not an http or https origin.`);
  }
  if (
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    (url.pathname !== '/' && url.pathname !== '')
  ) {
    throw new Error(`${JSON.stringify(input)} has more than scheme, host and port; write ${url.origin}.`);
  }
  return url.origin;
}

/** True when the request's `Origin` header value is on the allowlist, exactly. */
export function isOriginAllowed(origin: string | undefined, allowlist: readonly string[]): boolean {
  return origin !== undefined && allowlist.includes(origin);
}
