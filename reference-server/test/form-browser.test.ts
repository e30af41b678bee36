/**
 * The public form (docs/endpoints.md#the-form) read by a page of another origin in Chromium: a
 * simple GET needs no preflight, and the answer's CORS headers let the page read it; a page off
 * the allowlist cannot.
 */

import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  chromiumMissing,
  cli,
  launchBrowser,
  type RunningServer,
  seedTenant,
  startServer,
  tempDir,
} from '@waitlistkit/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const dir = tempDir();
let server: RunningServer;
let browser: Browser;
let landing: Server;
let origin: string;

beforeAll(async () => {
  landing = createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Landing</title>'),
  );
  await new Promise<void>((resolve) => landing.listen(0, '127.0.0.1', resolve));
  // localhost, not 127.0.0.1: another origin than the server's.
  origin = `http://localhost:${(landing.address() as AddressInfo).port}`;
  server = await startServer({ db: dir.db });
  if (!chromiumMissing) browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => landing.close(resolve));
  dir.cleanup();
});

describe.skipIf(chromiumMissing)('the form from a page in Chromium', () => {
  it('is read across origins without a preflight, and refused to an origin off the allowlist', async () => {
    const t = await seedTenant(dir.db, { waitlist: ['--origins', origin] });
    const file = join(dir.dir, 'fields.json');
    const fields = [{ key: 'company', label: 'Company', type: 'text', required: true }];
    writeFileSync(file, JSON.stringify(fields));
    await cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--fields', file], { db: dir.db });
    const other = await seedTenant(dir.db, { waitlist: ['--origins', 'https://elsewhere.example'] });

    const page = await browser.newPage();
    const methods: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/form')) methods.push(request.method());
    });
    await page.goto(`${origin}/`);
    const read = (id: string) =>
      page.evaluate(async (url) => {
        try {
          const res = await fetch(url);
          return { status: res.status, body: await res.json() };
        } catch (error) {
          return { error: String(error) };
        }
      }, `${server.url}/v1/public/waitlists/${id}/form`);
    expect(await read(t.waitlistId)).toEqual({ status: 200, body: { fields: [{ ...fields[0] }] } });
    // Off the allowlist: a 404 without CORS headers, which the page cannot even read.
    expect(await read(other.waitlistId)).toMatchObject({ error: expect.stringMatching(/TypeError/) });
    expect(methods).not.toContain('OPTIONS');
    await page.close();
  });
});
