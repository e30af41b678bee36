/**
 * The widget's locale files beside its script (docs/languages.md#the-widget): every language but
 * English at /widget/locales/<tag>.json, with the script's caching and cross-origin headers and
 * CORS (the widget fetches them from pages on other origins), gzipped for those that accept it;
 * any other name a 404, however it is spelt.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LANGUAGES } from '@waitlistkit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from './helpers.js';

let h: Harness;
const dist = dirname(createRequire(import.meta.url).resolve('@waitlistkit/widget/waitlist.js'));

beforeAll(async () => {
  h = await harness();
});
afterAll(() => h?.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${h.server.url}${path}`, { headers });

describe('/widget/locales/<tag>.json', () => {
  it('serves each language but English as built, with the script file’s caching and cross-origin headers', async () => {
    const script = await get('/widget/waitlist.js', { 'accept-encoding': 'gzip' });
    for (const tag of LANGUAGES.filter((t) => t !== 'en')) {
      const res = await get(`/widget/locales/${tag}.json`, { 'accept-encoding': 'gzip, br' });
      expect(res.status, tag).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      for (const header of ['cache-control', 'cross-origin-resource-policy', 'vary', 'content-encoding'])
        expect(res.headers.get(header), `${tag} ${header}`).toBe(script.headers.get(header));
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.text()).toBe(readFileSync(join(dist, 'locales', `${tag}.json`), 'utf8'));
    }
  });

  it('sends the file uncompressed to a client that does not accept gzip', async () => {
    const res = await get('/widget/locales/he.json', { 'accept-encoding': 'identity' });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(((await res.json()) as { label: string }).label).toBe('כתובת אימייל');
  });

  it('answers 404 for English (built in), a tag it lacks, and any other name or path trick', async () => {
    const names = [
      'en.json',
      'xx.json',
      'de',
      'de.js',
      'DE.json',
      'zh-hant.json',
      'de.json.gz',
      '..%2Fwaitlist.js',
      '..%2F..%2Fpackage.json',
      '%2e%2e%2fwaitlist.d.ts',
      'de.json%00',
      'constructor',
      '__proto__',
      `${'a'.repeat(5000)}.json`,
    ];
    for (const name of names) {
      const res = await get(`/widget/locales/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.headers.get('access-control-allow-origin'), name).toBeNull();
      await res.body?.cancel();
    }
    expect((await get('/widget/locales/')).status).toBe(404);
    expect((await get('/widget/locales/de.json/x')).status).toBe(404);
  });
});
