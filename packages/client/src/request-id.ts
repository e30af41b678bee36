import { Header } from '@waitlistkit/protocol';

/**
 * The answer's `Request-Id` (docs/protocol.md#request-id), or `undefined` when it carried none. Taken as sent,
 * not checked against the service's `req_…` pattern: whatever id a proxy in between put there
 * is still the one to quote to whoever runs it.
 */
export function readRequestId(headers: Headers): string | undefined {
  const value = headers.get(Header.requestId);
  return value === null || value === '' ? undefined : value;
}
