/**
 * Address variants (docs/subscribers.md#address-variants): the addresses a large provider delivers
 * to one mailbox, reduced to one key, so that a waitlist with `dedupe=provider` takes a variant of
 * a stored address as a re-sign-up of it. Only the providers listed here, whose rules are
 * published: any other domain may treat dots and `+` as part of the name.
 */

/** gmail.com and googlemail.com are one mailbox domain; the key writes both as gmail.com. */
const GMAIL = new Set(['gmail.com', 'googlemail.com']);

/** Providers that deliver `name+anything@` to `name@`, dots left as they are. */
const PLUS_ONLY = new Set([
  'outlook.com',
  'hotmail.com',
  'live.com',
  'icloud.com',
  'me.com',
  'fastmail.com',
  'proton.me',
  'protonmail.com',
]);

/**
 * The key of a normalised address (lower-cased, as the sign-up's dedupe key is) when its domain is
 * one of the providers; undefined for every other domain, whose addresses are compared exactly.
 */
export function variantKey(emailNorm: string): string | undefined {
  const at = emailNorm.lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = emailNorm.slice(at + 1);
  const gmail = GMAIL.has(domain);
  if (!gmail && !PLUS_ONLY.has(domain)) return undefined;
  const plus = emailNorm.indexOf('+');
  let local = emailNorm.slice(0, plus >= 0 && plus < at ? plus : at);
  if (gmail) local = local.replaceAll('.', '');
  // Nothing left of the name (`+x@`, `.@`): no mailbox to be a variant of.
  if (local === '') return undefined;
  return `${local}@${gmail ? 'gmail.com' : domain}`;
}

/** The domains whose addresses have a variant key: a store looks for these rows when the rule is switched on. */
export const VARIANT_DOMAINS: readonly string[] = [...GMAIL, ...PLUS_ONLY];
