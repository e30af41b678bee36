/** CORS of the public endpoint, docs/protocol.md#cors. Refused origins get no CORS headers at all. */
import { Header } from '@waitlistkit/protocol';

export const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '600',
};

export function corsHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': `${Header.retryAfter}, ${Header.confirmEmail}`,
    Vary: 'Origin',
  };
}
