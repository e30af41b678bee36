/** The service's base address without a trailing slash, or `undefined` unless it is http(s). */
export function parseBaseUrl(input: unknown): string | undefined {
  if (typeof input !== 'string' || input.length > 2048) return undefined;
  try {
    const url = new URL(input);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password)
      return undefined;
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}
