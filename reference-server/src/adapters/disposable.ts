/**
 * The disposable-email blocklist: the community list of disposable domains (the
 * disposable-email-domains project, via the disposable-email-domains-js package, CC0), plus
 * each waitlist's own extras. A subdomain of a listed domain is listed too.
 */
import { createRequire } from 'node:module';
import { domainListed } from '../domain/gates.js';

let shared: Set<string> | undefined;

function sharedList(): Set<string> {
  if (!shared) {
    const list = createRequire(import.meta.url)('disposable-email-domains-js') as {
      disposableEmailBlocklistSet(): Set<string>;
    };
    shared = list.disposableEmailBlocklistSet();
  }
  return shared;
}

export function isDisposable(domain: string, extras: readonly string[]): boolean {
  return domainListed(domain, [sharedList(), new Set(extras)]);
}
