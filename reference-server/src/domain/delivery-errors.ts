/**
 * What a tenant reads when a webhook attempt got no HTTP answer (docs/webhooks.md#retries: every attempt is
 * recorded, and its error is shown on the deliveries page and by `webhook deliveries`). One of a
 * few fixed sentences, never the error's own text: that names resolved addresses, ports and the
 * kind of failure (`connect ECONNREFUSED 10.0.0.5:22`), which would make the deliveries page a
 * scanner of the server's own network. The detail goes to the server's log only.
 *
 * A destination that is not public is refused before any connection, so the finer sentences
 * (TLS, not HTTP) only ever describe a public address, or a private one the operator allowed.
 */

export const DELIVERY_ERRORS = {
  not_public: "The destination's address is not public.",
  no_address: "The destination's host name does not resolve.",
  unreachable: 'The destination refused the connection or is not reachable.',
  timed_out: 'The destination did not answer in time.',
  tls: "The destination's TLS certificate or handshake was not accepted.",
  not_http: "The destination's answer was not HTTP.",
} as const;

export type DeliveryError = keyof typeof DELIVERY_ERRORS;

/**
 * Codes the sender gives its own failures: refused by the address rule, no address for the name,
 * and the attempt's budget spent before an answer.
 */
export const SENDER_CODES = {
  notPublic: 'EWEBHOOK_NOT_PUBLIC',
  noAddress: 'EWEBHOOK_NO_ADDRESS',
  timedOut: 'EWEBHOOK_TIMEOUT',
} as const;

/** Node's TLS and certificate codes (`ERR_TLS_CERT_ALTNAME_INVALID`, `CERT_HAS_EXPIRED`, `EPROTO` …). */
const TLS = /^(ERR_TLS_|ERR_SSL_|EPROTO$)|CERT|^UNABLE_TO_(GET|VERIFY)_/;

/** The sentence for an attempt that failed with `code` (an error's `code`, if it had one). */
export function deliveryError(code: string | undefined): DeliveryError {
  if (code === SENDER_CODES.notPublic) return 'not_public';
  if (code === SENDER_CODES.noAddress) return 'no_address';
  if (code === SENDER_CODES.timedOut || code === 'ETIMEDOUT') return 'timed_out';
  if (code !== undefined && TLS.test(code)) return 'tls';
  if (code?.startsWith('HPE_')) return 'not_http';
  return 'unreachable';
}

export function deliveryErrorText(code: string | undefined): string {
  return DELIVERY_ERRORS[deliveryError(code)];
}
