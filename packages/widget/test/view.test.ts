// @vitest-environment happy-dom
/**
 * The view a form counts (docs/insights.md#views): one per page load, with the page's source (or
 * none with attribution off), sent as a simple text/plain request by `sendBeacon`, or by a
 * `keepalive` fetch where there is none. Each test loads the widget afresh, as a page load does.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BASE_URL, VIEWS, WAITLIST_ID } from './support/fake-service.js';
import { pageService } from './support/page-service.js';

const { views: counter } = pageService();

let host: HTMLElement;
beforeEach(() => {
  vi.resetModules();
  counter.views.length = 0;
  window.happyDOM.setURL('https://site.example/launch?utm_source=news&token=secret#top');
  host = document.createElement('div');
  document.body.append(host);
});
afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

/** The widget as a new page load has it. */
async function load() {
  return (await import('../src/ui/mount.js')).mount;
}

const VIEWS_URL = VIEWS.replace(':id', WAITLIST_ID);

describe('a view', () => {
  it('is counted once per page load, however many forms of the waitlist mount or remount', async () => {
    const mount = await load();
    const first = mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL });
    const other = document.createElement('div');
    document.body.append(other);
    mount(other, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL });
    first.destroy();
    mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL });
    await vi.waitFor(() => expect(counter.views).toHaveLength(1));
    expect(counter.views[0]).toEqual({
      id: WAITLIST_ID,
      contentType: 'text/plain;charset=UTF-8',
      body: { source: { utm_source: 'news', landing: 'https://site.example/launch' } },
    });
  });

  it('carries no source with attribution off', async () => {
    const mount = await load();
    mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL, attribution: false });
    await vi.waitFor(() => expect(counter.views).toHaveLength(1));
    expect(counter.views[0]?.body).toEqual({});
  });

  it('goes by sendBeacon where the browser has it, and by fetch when the beacon is refused', async () => {
    const beacon = vi.fn((_url: string, _body: string) => true);
    vi.stubGlobal('navigator', { ...navigator, sendBeacon: beacon });
    const mount = await load();
    mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL });
    expect(beacon).toHaveBeenCalledWith(
      VIEWS_URL,
      JSON.stringify({ source: { utm_source: 'news', landing: 'https://site.example/launch' } }),
    );

    vi.resetModules();
    beacon.mockReturnValue(false);
    (await load())(document.body.appendChild(document.createElement('div')), {
      waitlistId: WAITLIST_ID,
      baseUrl: BASE_URL,
    });
    await vi.waitFor(() => expect(counter.views).toHaveLength(1));
    expect(beacon).toHaveBeenCalledTimes(2);
  });
});
