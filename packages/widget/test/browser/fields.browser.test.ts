/**
 * The waitlist's questions in real headless Chromium, with axe: a text, a select and a required
 * consent box (docs/subscribers.md#fields), signed up with the keyboard alone, a refusal announced
 * at its field, and the page's source sent (docs/subscribers.md#attribution). The service is a
 * stub of the public endpoints as docs/endpoints.md describes them (the form, the gates, the
 * subscribe with its check of the answers), on its own origin, beside the built script tag.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { checkFieldValues, type FieldDefinition } from '@waitlistkit/protocol';
import { axeViolations, chromiumMissing, launchBrowser } from '@waitlistkit/testkit';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/ui/locale.js';
import { landingPage, type PageServer, startPageServer } from './page-server.js';

const WAITLIST_ID = 'wl_fieldsInChromium';
const FIELDS: FieldDefinition[] = [
  { key: 'company', label: 'Company', type: 'text', required: false },
  {
    key: 'role',
    label: 'Your role',
    type: 'select',
    required: true,
    options: ['Engineer', 'Founder', 'Other'],
  },
  { key: 'consent', label: 'I agree to receive launch emails', type: 'checkbox', required: true },
];
const script = readFileSync(fileURLToPath(new URL('../../dist/waitlist.js', import.meta.url)));

interface Service {
  url: string;
  /** The bodies of the sign-ups it accepted or refused, in order. */
  signups: Record<string, unknown>[];
  /** The fields the subscribe endpoint checks against: the waitlist's, unless a test changed them since. */
  checked: FieldDefinition[];
  close(): Promise<void>;
}

/** The public endpoints for one waitlist and one allowed origin, answering as docs/endpoints.md says. */
async function startService(allowed: () => string): Promise<Service> {
  const signups: Record<string, unknown>[] = [];
  const prefix = `/v1/public/waitlists/${WAITLIST_ID}/`;
  const send = (res: ServerResponse, status: number, body?: unknown) => {
    if (body === undefined) res.writeHead(status).end();
    else res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  };
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    if (path === '/widget/waitlist.js') {
      res.writeHead(200, {
        'Content-Type': 'text/javascript',
        'Cross-Origin-Resource-Policy': 'cross-origin',
      });
      return res.end(script);
    }
    const endpoint = path.startsWith(prefix) ? path.slice(prefix.length) : '';
    // docs/protocol.md#cors: an origin off the list, or another waitlist, is one 404 without CORS headers.
    if (!['form', 'gates', 'subscribers'].includes(endpoint) || req.headers.origin !== allowed()) {
      return send(res, 404, { error: { code: 'not_found', message: 'Not found.' } });
    }
    res.setHeader('Access-Control-Allow-Origin', allowed());
    res.setHeader('Access-Control-Expose-Headers', 'Retry-After, Waitlist-Confirm-Email');
    res.setHeader('Vary', 'Origin');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
      res.setHeader('Access-Control-Max-Age', '600');
      return send(res, 204);
    }
    if (endpoint === 'form' && req.method === 'GET') return send(res, 200, { fields: FIELDS });
    let text = '';
    for await (const chunk of req) text += chunk;
    // No gate is on: `{}` (docs/endpoints.md#gates).
    if (endpoint === 'gates' && req.method === 'POST') return send(res, 200, {});
    if (endpoint === 'subscribers' && req.method === 'POST') {
      const body = JSON.parse(text) as Record<string, unknown>;
      signups.push(body);
      const checked = checkFieldValues(stub.checked, body.fields);
      if (!checked.ok)
        return send(res, 400, { error: { code: 'invalid_request', message: checked.problem.message } });
      return send(res, 202, {
        status: 'accepted',
        status_token: 'tok_status',
        referral_code: 'K7M2QX',
        status_url: `http://127.0.0.1/s/tok_status`,
      });
    }
    send(res, 404, { error: { code: 'not_found', message: 'Not found.' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stub: Service = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    signups,
    checked: FIELDS,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return stub;
}

let browser: Browser;
let service: Service;
let pages: PageServer;

beforeAll(async () => {
  service = await startService(() => pages.origin);
  pages = await startPageServer((path) => ({
    body: landingPage(service.url, WAITLIST_ID, path.startsWith('/off') ? 'data-attribution="off"' : ''),
  }));
  if (!chromiumMissing) browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await pages?.close();
  await service?.close();
});

const shadow = (page: Page, selector: string) => page.locator(`waitlist-form >> ${selector}`);
const status = (page: Page) => shadow(page, '[role=status]').textContent();
/** What has focus inside the form's shadow root. */
const focusedId = (page: Page) =>
  page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.id ?? '');

/** The focused node of Chromium's accessibility tree: what a screen reader announces on focus. */
async function announced(cdp: CDPSession) {
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: {
      role?: { value: string };
      name?: { value: string };
      description?: { value: string };
      properties?: { name: string; value: { value: unknown } }[];
    }[];
  };
  // The page itself counts as focused too: the focused control is the last, deepest, of them.
  const node = nodes
    .filter((n) => n.properties?.some((p) => p.name === 'focused' && p.value.value === true))
    .at(-1);
  const property = (name: string) => node?.properties?.find((p) => p.name === name)?.value.value;
  return {
    role: node?.role?.value,
    name: node?.name?.value,
    description: node?.description?.value,
    invalid: property('invalid'),
  };
}

describe.skipIf(chromiumMissing)('the waitlist’s questions in Chromium', () => {
  it('a text, a select and a required consent box: no axe violations, before and after a refusal and a sign-up', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${pages.origin}/axe`);
    await shadow(page, '#k-consent').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shadow(page, 'input[type=email]').fill('axe@example.com');
    await shadow(page, 'button[type=submit]').click();
    await expect.poll(() => shadow(page, '#m-consent').textContent()).toBe(en.required);
    expect(await axeViolations(page)).toEqual([]);
    await shadow(page, '#k-consent').check();
    await shadow(page, 'button[type=submit]').click();
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe(en.success);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('signs up with the keyboard alone, answers and source included', async () => {
    const page = await browser.newPage();
    await page.goto(`${pages.origin}/launch?utm_source=newsletter&utm_campaign=spring&token=secret#pricing`, {
      referer: 'https://news.example/item?id=7',
    });
    await shadow(page, '#k-consent').waitFor();
    const before = service.signups.length;
    // Address, company, role, consent, submit: the order of the form, by Tab.
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('e');
    await page.keyboard.type('keys@example.com');
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('k-company');
    await page.keyboard.type('  Acme  ');
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('k-role');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('k-consent');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('type')),
    ).toBe('submit');
    await page.keyboard.press('Enter');
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe(en.success);
    expect(service.signups.slice(before)).toEqual([
      {
        email: 'keys@example.com',
        fields: { company: 'Acme', role: 'Founder', consent: true },
        // Origin + path only: the page's token and the referrer's query stay on the page.
        source: {
          utm_source: 'newsletter',
          utm_campaign: 'spring',
          referrer: 'https://news.example/item',
          landing: `${pages.origin}/launch`,
        },
        // The language the form was read in (docs/languages.md#the-widget): the page is English.
        lang: 'en',
      },
    ]);
    await page.close();
  });

  it('with data-attribution="off", sends the answers and nothing about the page', async () => {
    const page = await browser.newPage();
    await page.goto(`${pages.origin}/off?utm_source=newsletter`, { referer: 'https://news.example/' });
    await shadow(page, '#k-consent').waitFor();
    await shadow(page, 'input[type=email]').fill('private@example.com');
    await shadow(page, '#k-consent').check();
    await shadow(page, 'button[type=submit]').click();
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe(en.success);
    expect(service.signups.at(-1)).toEqual({
      email: 'private@example.com',
      fields: { role: 'Engineer', consent: true },
      // Not about the page: the language the visitor read the form in.
      lang: 'en',
    });
    await page.close();
  });

  it('announces the error of a required consent box at the box, where focus moves, and sends nothing', async () => {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await page.goto(`${pages.origin}/consent`);
    await shadow(page, '#k-consent').waitFor();
    const before = service.signups.length;
    await shadow(page, 'input[type=email]').fill('no-consent@example.com');
    await shadow(page, 'input[type=email]').press('Enter');
    await expect.poll(() => focusedId(page)).toBe('k-consent');
    expect(await announced(cdp)).toEqual({
      role: 'checkbox',
      name: 'I agree to receive launch emails',
      description: en.required,
      invalid: 'true',
    });
    // Chromium's tree has no required state for a checkbox (not even with aria-required): the
    // box carries the attribute, and the error text says it.
    expect(await shadow(page, '#k-consent').getAttribute('required')).toBe('');
    expect(service.signups.length).toBe(before);
    await page.close();
  });

  it('shows the service’s refusal at the field it names', async () => {
    const page = await browser.newPage();
    await page.goto(`${pages.origin}/refused`);
    await shadow(page, '#k-consent').waitFor();
    // The waitlist made its company question required after the page asked the form: only the
    // service can say so, and its 400 names the field.
    service.checked = FIELDS.map((field) => (field.key === 'company' ? { ...field, required: true } : field));
    try {
      await shadow(page, '#k-consent').check();
      await shadow(page, 'input[type=email]').fill('refused@example.com');
      await shadow(page, 'button[type=submit]').click();
      await expect
        .poll(() => shadow(page, '#m-company').textContent(), { timeout: 30_000 })
        .toBe(en.required);
      expect(await focusedId(page)).toBe('k-company');
      expect(await shadow(page, '#k-company').getAttribute('aria-invalid')).toBe('true');
      expect(await shadow(page, '#k-company').getAttribute('aria-describedby')).toBe('m-company');
      expect(service.signups.at(-1)?.fields).toEqual({ role: 'Engineer', consent: true });
    } finally {
      service.checked = FIELDS;
    }
    await page.close();
  });
});
