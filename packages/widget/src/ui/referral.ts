import { normalizeReferralCode } from '@waitlistkit/protocol';

/** The referral code in the page address (`?ref=`), when it can be one. */
export function readReferral(href: string, param: string): string | undefined {
  try {
    return normalizeReferralCode(new URL(href).searchParams.get(param));
  } catch {
    return undefined;
  }
}

/** The page address carrying `code`, without a fragment: the link a subscriber shares. */
export function shareLink(href: string, param: string, code: string): string {
  const url = new URL(href);
  url.hash = '';
  url.searchParams.set(param, code);
  return url.href;
}

/** `href` when it is an http(s) address; a server's `status_url` never becomes a `javascript:` link. */
export function safeLink(href: string): string | undefined {
  try {
    return /^https?:$/.test(new URL(href).protocol) ? href : undefined;
  } catch {
    return undefined;
  }
}
