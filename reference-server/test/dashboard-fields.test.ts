/**
 * The dashboard's field editor (docs/subscribers.md#fields) over HTTP, as a browser without
 * JavaScript posts it: add, reorder, remove, and every bad definition refused with nothing saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, type Harness, harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');

async function editor() {
  const t = await h.tenant();
  const b = new Browser(h.server.url);
  await b.signIn(`admin-${t.tenantId}@test.example`);
  const path = `/dashboard/waitlists/${t.waitlistId}`;
  const csrf = Browser.csrf((await b.get(path)).html);
  const post = (form: Record<string, string>) => b.post(`${path}/fields`, { _csrf: csrf, ...form });
  const fields = async () =>
    (
      await h.cli<{ fields: { key: string; type: string; options?: string[] }[] }>([
        'waitlist',
        'show',
        '--waitlist',
        t.waitlistId,
      ])
    ).fields;
  return { b, path, post, fields };
}

const row = (i: number, key: string, label: string, type = 'text', extra: Record<string, string> = {}) => ({
  [`key_${i}`]: key,
  [`label_${i}`]: label,
  [`type_${i}`]: type,
  [`options_${i}`]: '',
  ...extra,
});

describe('the field editor', () => {
  it('adds fields from the blank row, reorders and removes them, and shows them on the page', async () => {
    const { b, path, post, fields } = await editor();
    const page = await b.get(path);
    expect(page.html).toContain('Sign-up fields');
    expect(page.html).toContain('name="key_0"');
    const added = await post(row(0, 'company', 'Company', 'text', { required_0: 'on' }));
    expect(added.res.status).toBe(303);
    await post({
      ...row(0, 'company', 'Company', 'text', { required_0: 'on' }),
      ...row(1, 'role', 'Role', 'select', { options_1: 'Engineer\r\nFounder\r\n' }),
    });
    expect(await fields()).toEqual([
      { key: 'company', label: 'Company', type: 'text', required: true },
      { key: 'role', label: 'Role', type: 'select', required: false, options: ['Engineer', 'Founder'] },
    ]);
    const rows = {
      ...row(0, 'company', 'Company'),
      ...row(1, 'role', 'Role', 'select', { options_1: 'A\nB' }),
    };
    expect((await post({ ...rows, move: 'up:1' })).res.status).toBe(303);
    expect((await fields()).map((f) => f.key)).toEqual(['role', 'company']);
    expect(
      (
        await post({
          ...row(0, 'role', 'Role', 'select', { options_0: 'A' }),
          ...row(1, 'company', 'Company'),
          remove_0: 'on',
        })
      ).res.status,
    ).toBe(303);
    expect((await fields()).map((f) => f.key)).toEqual(['company']);
    const shown = await b.get(path);
    expect(shown.html).toContain('value="company"');
  });

  it('refuses bad definitions with a message naming the field, saving nothing', async () => {
    const { post, fields } = await editor();
    await post(row(0, 'company', 'Company'));
    const cases: [Record<string, string>, RegExp][] = [
      [row(0, 'company', 'x'.repeat(10_000)), /Field 1's label must be at most 80 characters long/],
      [
        row(0, 'role', 'Role', 'select', {
          options_0: Array.from({ length: 51 }, (_, i) => `o${i}`).join('\n'),
        }),
        /Field 1's options must be at most 50/,
      ],
      [row(0, 'role', 'Role', 'select'), /Field 1's options must be at least 1/],
      [{ ...row(0, 'company', 'A'), ...row(1, 'company', 'B') }, /must not repeat a key/],
      [row(0, 'Company Name', 'Company'), /Field 1's key must start with a-z/],
      [row(0, 'company', 'Company', 'date'), /Field 1's type must be one of "text", "select", "checkbox"/],
      [row(0, 'company', ''), /Field 1's label must be at least 1 characters long/],
    ];
    for (const [form, message] of cases) {
      const refused = await post(form);
      expect(refused.res.status).toBe(400);
      expect(text(refused.html)).toMatch(message);
      expect(text(refused.html)).toContain('Nothing was saved.');
    }
    expect((await fields()).map((f) => f.key)).toEqual(['company']);
  });
});
