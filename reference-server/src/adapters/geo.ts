/**
 * Country of an IP address from the offline database of the geoip-country package (loaded on
 * first use: it is several megabytes). Private, loopback and unknown addresses have no country.
 */
import { createRequire } from 'node:module';

interface GeoIpCountry {
  lookup(ip: string): { country: string } | null;
}

let db: GeoIpCountry | undefined;

export function countryOf(ip: string | undefined): string | undefined {
  if (!ip) return undefined;
  db ??= createRequire(import.meta.url)('geoip-country') as GeoIpCountry;
  const country = db.lookup(ip)?.country;
  return country && /^[A-Z]{2}$/.test(country) ? country : undefined;
}
