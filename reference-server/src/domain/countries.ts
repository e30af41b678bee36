/** ISO 3166-1 alpha-2 country codes, checked against the runtime's CLDR region data. */
const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
// CLDR names these two-letter codes too, but they are groupings or placeholders, not countries.
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'QO', 'UN', 'ZZ']);

export function parseCountry(input: string): string {
  const code = input.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code) || regions.of(code) === undefined) {
    throw new Error(`${JSON.stringify(input)} is not an ISO 3166-1 alpha-2 country code (like US or DE).`);
  }
  return code;
}
