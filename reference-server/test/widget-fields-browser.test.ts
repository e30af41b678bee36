/**
 * The built widget with the waitlist's questions, embedded by one script tag on a page of another
 * origin, against the built server, in Chromium: the fields set by the command line
 * (docs/subscribers.md#fields) shown in order and accessible, an unanswered one refused before
 * anything is sent, the answers and the page's source kept with the sign-up
 * (docs/subscribers.md#attribution), and the server's refusal of an answer the form could not
 * know was stale shown at the field it names (docs/endpoints.md#the-form).
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListPageSchema, type Subscriber, SubscriberSchema } from '@waitlistkit/protocol';
import {
  axeViolations,
  chromiumMissing,
  cli,
  launchBrowser,
  type RunningServer,
  seedTenant,
  startServer,
  type Tenant,
  tempDir,
} from '@waitlistkit/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LandingPage, startLandingPage } from './browser-helpers.js';

const ROLES = ['Engineering', 'Product', 'Other'];
const FIELDS = [
  { key: 'company', label: 'Company', type: 'text', required: true },
  { key: 'role', label: 'Your role', type: 'select', options: ROLES },
];
// The widget's English texts (packages/widget/src/ui/locale.ts).
const REQUIRED = 'This field is required.';
const CHECK_ANSWER = 'Please check this answer.';
const SUCCESS = "You're on the list!";
/** Where the visitors come from: a page elsewhere, whose query the widget never sends. */
const REFERRER = 'https://news.example/item?id=7';
/** A sign-up's round trip on a loaded two-core machine running other files' servers and Chromium. */
const SIGNED_UP_MS = 30_000;
/** A refusal drawn after the click or the answer, on that machine: a render, not a round trip. */
const SHOWN_MS = 10_000;

const dir = tempDir();
let server: RunningServer;
let browser: Browser;
let landing: LandingPage;
let origin: string;

/**
 * A tenant's marketing page, `/{waitlist id}/…`, with the widget's script tag as the setup page
 * gives it; under `/{waitlist id}/off…`, with `data-attribution="off"`.
 */
function landingPage(path: string): string {
  const [, waitlistId = '', page = ''] = path.split(/[/?]/);
  const attribution = page.startsWith('off') ? ' data-attribution="off"' : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Launch</title></head>
<body><main><h1>Something new is coming</h1>
<script src="${server.url}/widget/waitlist.js" data-waitlist-id="${waitlistId}" data-base-url="${server.url}"${attribution} async></script>
</main></body></html>`;
}

beforeAll(async () => {
  landing = await startLandingPage(landingPage);
  origin = landing.origin;
  server = await startServer({ db: dir.db });
  if (!chromiumMissing) browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await landing?.close();
  dir.cleanup();
});

/** Sets the waitlist's fields as an operator would: a JSON file and the command line. */
async function setFields(waitlistId: string, fields: unknown[]): Promise<void> {
  const file = join(dir.dir, `${waitlistId}.json`);
  writeFileSync(file, JSON.stringify(fields));
  await cli(['waitlist', 'update', '--waitlist', waitlistId, '--fields', file], { db: dir.db });
}

/** A waitlist of its own for each test, the landing page's origin on its allowlist, asking FIELDS. */
async function waitlistWithFields(): Promise<Tenant> {
  const t = await seedTenant(dir.db, { waitlist: ['--origins', origin] });
  await setFields(t.waitlistId, FIELDS);
  return t;
}

/** The Bearer API, as a tenant's backend reads it. */
async function api(t: Tenant, path: string): Promise<unknown> {
  const res = await fetch(`${server.url}/v1/api/waitlists/${t.waitlistId}/subscribers${path}`, {
    headers: { Authorization: `Bearer ${t.key}` },
  });
  expect(res.status).toBe(200);
  return res.json();
}

const stored = async (t: Tenant): Promise<number> => ListPageSchema.parse(await api(t, '')).total;

/** The subscriber of that address, found by the list's search and read by its id. */
async function subscriberOf(t: Tenant, email: string): Promise<Subscriber> {
  const { items } = ListPageSchema.parse(await api(t, `?q=${encodeURIComponent(email)}`));
  expect(items.map((s) => s.email)).toEqual([email]);
  return SubscriberSchema.parse(await api(t, `/${items[0]?.id}`));
}

/** A fresh context (no cached form) on the landing page, once the widget shows the questions. */
async function visit(path: string, referer?: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${origin}${path}`, { referer });
  await shadow(page, '#k-role').waitFor();
  return page;
}

const shadow = (page: Page, selector: string) => page.locator(`waitlist-form >> ${selector}`);
const status = (page: Page) => shadow(page, '[role=status]').textContent();
/** What has focus inside the form's shadow root. */
const focusedId = (page: Page) =>
  page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.id ?? '');

/** The sign-ups the page sends, as it sends them. */
function sentSignups(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/subscribers')) sent.push(r.postData() ?? '');
  });
  return sent;
}

async function signUp(page: Page, answers: { email: string; company: string; role: string }) {
  await shadow(page, 'input[type=email]').fill(answers.email);
  await shadow(page, '#k-company').fill(answers.company);
  await shadow(page, '#k-role').selectOption(answers.role);
  await shadow(page, 'button[type=submit]').click();
}

describe.skipIf(chromiumMissing)(
  'the widget’s questions on another origin, against the server, in Chromium',
  () => {
    it('renders the fields set by the command line in order, labelled, with no axe violations', async () => {
      const t = await waitlistWithFields();
      const page = await visit(`/${t.waitlistId}/`);
      expect(await page.locator('script').count()).toBe(1);
      expect(await shadow(page, 'label').allTextContents()).toEqual([
        'Email address',
        'Company',
        'Your role',
      ]);
      expect(
        await shadow(page, 'input, select, button').evaluateAll((all) => all.map((e) => e.id || e.localName)),
      ).toEqual(['e', 'k-company', 'k-role', 'button']);
      // Each control is named by its label, as a screen reader reads it.
      expect(await page.getByLabel('Company').getAttribute('id')).toBe('k-company');
      expect(await page.getByLabel('Company').getAttribute('required')).toBe('');
      expect(await page.getByLabel('Your role').getAttribute('id')).toBe('k-role');
      // Optional: a blank choice first, then the options as the file lists them.
      expect(await shadow(page, '#k-role option').allTextContents()).toEqual(['', ...ROLES]);
      expect(await axeViolations(page)).toEqual([]);
      await page.context().close();
    });

    it('refuses an empty required field at the field, and sends nothing', async () => {
      const t = await waitlistWithFields();
      const page = await visit(`/${t.waitlistId}/`);
      const sent = sentSignups(page);
      await signUp(page, { email: 'no-company@example.com', company: '   ', role: 'Product' });
      await expect.poll(() => shadow(page, '#m-company').textContent(), { timeout: SHOWN_MS }).toBe(REQUIRED);
      const company = shadow(page, '#k-company');
      expect(await company.getAttribute('aria-invalid')).toBe('true');
      expect(await company.getAttribute('aria-describedby')).toBe('m-company');
      expect(await focusedId(page)).toBe('k-company');
      // The role was answered well: no error there.
      expect(await shadow(page, '#k-role').getAttribute('aria-invalid')).toBeNull();
      // Refused before the request: the widget's own check (checkFieldValues) runs before it sends.
      expect(sent).toEqual([]);
      expect(await stored(t)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.context().close();
    });

    it('keeps the answers, the page’s source trimmed to origin and path, and the channel it gives', async () => {
      const t = await waitlistWithFields();
      const page = await visit(
        `/${t.waitlistId}/launch?utm_source=x&utm_campaign=y&token=secret#pricing`,
        REFERRER,
      );
      await signUp(page, { email: 'ada@example.com', company: '  Analytical Engines  ', role: 'Product' });
      await expect.poll(() => status(page), { timeout: SIGNED_UP_MS }).toBe(SUCCESS);
      const subscriber = await subscriberOf(t, 'ada@example.com');
      expect(subscriber.channel).toBe('x');
      expect(subscriber.fields).toEqual({ company: 'Analytical Engines', role: 'Product' });
      // Pages as origin + path: the page's token and the referrer's query never left the page.
      expect(subscriber.source).toEqual({
        utm_source: 'x',
        utm_campaign: 'y',
        referrer: 'https://news.example/item',
        landing: `${origin}/${t.waitlistId}/launch`,
      });
      await page.context().close();
      // Without utm_source, the referring page's host is the channel.
      const other = await visit(`/${t.waitlistId}/launch`, REFERRER);
      await signUp(other, { email: 'grace@example.com', company: 'Navy', role: 'Engineering' });
      await expect.poll(() => status(other), { timeout: SIGNED_UP_MS }).toBe(SUCCESS);
      expect(await subscriberOf(t, 'grace@example.com')).toMatchObject({
        source: { referrer: 'https://news.example/item', landing: `${origin}/${t.waitlistId}/launch` },
        channel: 'news.example',
      });
      await other.context().close();
    });

    it('with data-attribution="off", keeps the answers and no source', async () => {
      const t = await waitlistWithFields();
      const page = await visit(`/${t.waitlistId}/off?utm_source=x&utm_campaign=y`, REFERRER);
      const sent = sentSignups(page);
      await signUp(page, { email: 'private@example.com', company: 'Acme', role: 'Other' });
      await expect.poll(() => status(page), { timeout: SIGNED_UP_MS }).toBe(SUCCESS);
      expect(sent.map((body) => JSON.parse(body))).toEqual([
        // `lang`: the language the form was read in (docs/languages.md#the-widget), not about the page.
        { email: 'private@example.com', fields: { company: 'Acme', role: 'Other' }, lang: 'en' },
      ]);
      const subscriber = await subscriberOf(t, 'private@example.com');
      expect(subscriber).toMatchObject({
        fields: { company: 'Acme', role: 'Other' },
        source: {},
        channel: 'direct',
      });
      await page.context().close();
    });

    it('shows the server’s 400 at the field it names when the fields changed after the form was read', async () => {
      const t = await waitlistWithFields();
      const page = await visit(`/${t.waitlistId}/`);
      // The operator drops the option the visitor is about to pick; the widget keeps the
      // description it read, so only the server can tell.
      await setFields(
        t.waitlistId,
        FIELDS.map((f) => (f.key === 'role' ? { ...f, options: ROLES.filter((r) => r !== 'Product') } : f)),
      );
      const answered = page.waitForResponse(
        (r) => r.request().method() === 'POST' && r.url().endsWith('/subscribers'),
        { timeout: SIGNED_UP_MS },
      );
      await signUp(page, { email: 'late@example.com', company: 'Acme', role: 'Product' });
      const response = await answered;
      expect(response.status()).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { code: 'invalid_request', message: expect.stringContaining('`fields.role`') },
      });
      await expect
        .poll(() => shadow(page, '#m-role').textContent(), { timeout: SHOWN_MS })
        .toBe(CHECK_ANSWER);
      const role = shadow(page, '#k-role');
      expect(await role.getAttribute('aria-invalid')).toBe('true');
      expect(await role.getAttribute('aria-describedby')).toBe('m-role');
      expect(await focusedId(page)).toBe('k-role');
      expect(await shadow(page, '#k-company').getAttribute('aria-invalid')).toBeNull();
      expect(await stored(t)).toBe(0);
      await page.context().close();
    });
  },
);
