/**
 * Importing on the dashboard (docs/moving-a-list.md), over HTTP on both stores: the upload as a
 * plain multipart form (no JavaScript), the check before anything is written, the commit, the
 * size cap, CSRF, and admins only.
 */
import { ListPageSchema } from '@waitlistkit/protocol';
import type { Tenant } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOperator, apiList, Browser, type Harness, harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

/** Posts the upload form as a browser does: multipart, with the session's cookie and token. */
async function upload(b: Browser, t: Tenant, csv: string | Buffer, csrf: string) {
  const form = new FormData();
  form.set('_csrf', csrf);
  form.set(
    'file',
    new Blob([typeof csv === 'string' ? csv : new Uint8Array(csv)], { type: 'text/csv' }),
    'list.csv',
  );
  const res = await fetch(`${b.base}/dashboard/waitlists/${t.waitlistId}/import`, {
    method: 'POST',
    headers: { Cookie: b.cookie, Origin: new URL(b.base).origin },
    body: form,
    redirect: 'manual',
  });
  return { res, html: await res.text() };
}

async function emails(t: Tenant): Promise<string[]> {
  const res = await apiList(h.server, t.key, t.waitlistId, '?limit=200');
  return ListPageSchema.parse(await res.json()).items.map((s) => s.email);
}

describe('the dashboard’s import', () => {
  it('checks the uploaded file, writes nothing until the button, then imports it', async () => {
    const t = await h.tenant();
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const list = await b.get(`/dashboard/waitlists/${t.waitlistId}/subscribers`);
    expect(list.html).toContain(`href="/dashboard/waitlists/${t.waitlistId}/import"`);
    const page = await b.get(`/dashboard/waitlists/${t.waitlistId}/import`);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('enctype="multipart/form-data"');
    const csv =
      'email,joined_at\r\nada@example.com,2024-01-01\r\nnot-an-address,\r\nbo@example.com,2999-01-01\r\ncy@example.com,\r\n';
    const checked = await upload(b, t, csv, Browser.csrf(page.html));
    expect(checked.res.status).toBe(200);
    expect(text(checked.html)).toContain('2 to import');
    expect(text(checked.html)).toContain('2 invalid');
    expect(text(checked.html)).toContain('`joined_at` is in the future.');
    expect(await emails(t)).toEqual([]);
    const token = checked.html.match(/name="upload" value="([^"]+)"/)?.[1] as string;
    const done = await b.post(`/dashboard/waitlists/${t.waitlistId}/import/commit`, {
      _csrf: Browser.csrf(checked.html),
      upload: token,
      skip_invalid: 'on',
    });
    expect(done.res.status).toBe(303);
    expect(done.res.headers.get('location')).toBe(
      `/dashboard/waitlists/${t.waitlistId}/subscribers?imported=2`,
    );
    expect(text((await b.get(done.res.headers.get('location') as string)).html)).toContain(
      'Imported 2 subscribers.',
    );
    expect(await emails(t)).toEqual(['ada@example.com', 'cy@example.com']);
    // The same upload once more: gone, nothing imported twice.
    const again = await b.post(`/dashboard/waitlists/${t.waitlistId}/import/commit`, {
      _csrf: Browser.csrf(checked.html),
      upload: token,
    });
    expect(again.res.status).toBe(400);
    expect(text(again.html)).toContain('This upload is gone');
  });

  it('refuses a file the import cannot read, and one over the size cap, on the upload page', async () => {
    const t = await h.tenant();
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const csrf = Browser.csrf((await b.get(`/dashboard/waitlists/${t.waitlistId}/import`)).html);
    const utf16 = await upload(
      b,
      t,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('email\n', 'utf16le')]),
      csrf,
    );
    expect(utf16.res.status).toBe(400);
    expect(text(utf16.html)).toContain('save it as CSV in UTF-8');
    expect(utf16.html).toContain('aria-invalid="true"');
    const big = await upload(b, t, `email\n${'a@example.com\n'.repeat(800_000)}`, csrf);
    expect(big.res.status).toBe(413);
    expect(text(big.html)).toContain('larger than 10 MB');
    expect(await emails(t)).toEqual([]);
  });

  it('refuses an upload without the form’s CSRF token', async () => {
    const t = await h.tenant();
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const forged = await upload(b, t, 'email\nx@example.com\n', 'not-the-token');
    expect(forged.res.status).toBe(403);
    expect(await emails(t)).toEqual([]);
  });

  it('shows a member why not, and refuses a member’s upload', async () => {
    const t = await h.tenant();
    const b = new Browser(h.server.url);
    await b.signIn(await addOperator(h, t.tenantId, 'member'));
    const page = await b.get(`/dashboard/waitlists/${t.waitlistId}/import`);
    expect(text(page.html)).toContain('Only admins can import subscribers');
    expect(page.html).not.toContain('type="file"');
    const tried = await upload(b, t, 'email\nx@example.com\n', Browser.csrf(page.html));
    expect(tried.res.status).toBe(403);
    expect(await emails(t)).toEqual([]);
  });
});
