// @vitest-environment happy-dom
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { DEFAULT_TAG, defineWaitlistElement, type WaitlistElement } from '../src/ui/element.js';
import { en } from '../src/ui/locale.js';
import { BASE_URL, ENDPOINT, fakeService, WAITLIST_ID } from './support/fake-service.js';
import { pageService } from './support/page-service.js';

// Every form asks its description first: none, unless a test says otherwise.
const { server } = pageService();

let errors: MockInstance<typeof console.error>;
beforeEach(() => {
  window.happyDOM.setURL('https://site.example/');
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  defineWaitlistElement();
});
afterEach(() => {
  document.body.innerHTML = '';
  for (const script of document.head.querySelectorAll('script')) script.remove();
  server.resetHandlers();
  vi.restoreAllMocks();
  vi.resetModules();
});

const logged = () => errors.mock.calls.map((call) => call.map(String).join(' ')).join('\n');
const inside = (element: Element | null, selector: string) =>
  element?.shadowRoot?.querySelector<HTMLElement>(selector);
const submit = (element: Element) => {
  (inside(element, 'input') as HTMLInputElement).value = 'ada@example.com';
  (inside(element, 'form') as HTMLFormElement).requestSubmit();
};

describe('<waitlist-form>', () => {
  it('is defined once, however often it is asked', () => {
    defineWaitlistElement();
    defineWaitlistElement();
    expect(customElements.get(DEFAULT_TAG)).toBeDefined();
  });

  it('renders from markup, texts from attributes, and follows attribute changes', async () => {
    document.body.innerHTML = `<waitlist-form waitlist-id="${WAITLIST_ID}" base-url="${BASE_URL}" label="Your email" theme="dark"></waitlist-form>`;
    const element = document.querySelector(DEFAULT_TAG) as WaitlistElement;
    await vi.waitFor(() => expect(inside(element, 'label')?.textContent).toBe('Your email'));
    expect(inside(element, '.w')?.className).toBe('w dark');
    element.setAttribute('button', 'Count me in');
    await vi.waitFor(() => expect(inside(element, 'button')?.textContent).toBe('Count me in'));
    expect(errors).not.toHaveBeenCalled();
  });

  it('reports bad attributes on the console, never throwing into the page', async () => {
    document.body.innerHTML = `<waitlist-form base-url="javascript:alert(1)" theme="neon"></waitlist-form>`;
    const element = document.querySelector(DEFAULT_TAG) as WaitlistElement;
    await vi.waitFor(() => expect(errors).toHaveBeenCalled());
    expect(logged()).toContain('theme "neon" is not one of auto, light, dark');
    expect(logged()).toContain('waitlist-id is missing');
    expect(logged()).toContain('base-url "javascript:alert(1)" is not an http(s) address');
    expect(element.shadowRoot).toBeNull();
  });

  it('renders hostile attribute text as text', async () => {
    const element = document.createElement(DEFAULT_TAG);
    element.setAttribute('waitlist-id', WAITLIST_ID);
    element.setAttribute('base-url', BASE_URL);
    element.setAttribute('label', '<img src=x onerror=alert(1)>');
    element.setAttribute('locale', '{"button":"</button><script>alert(1)</script>"}');
    document.body.append(element);
    await vi.waitFor(() =>
      expect(inside(element, 'label')?.textContent).toBe('<img src=x onerror=alert(1)>'),
    );
    expect(inside(element, 'img')).toBeNull();
    expect(inside(element, 'script')).toBeNull();
    expect(inside(element, 'button')?.textContent).toBe('</button><script>alert(1)</script>');
  });

  it('sends bubbling, composed events that the page sees on document', async () => {
    server.use(fakeService().handler);
    const seen: string[] = [];
    document.addEventListener('waitlist:success', (event) => seen.push((event.target as Element).tagName));
    document.body.innerHTML = `<waitlist-form waitlist-id="${WAITLIST_ID}" base-url="${BASE_URL}"></waitlist-form>`;
    const element = document.querySelector(DEFAULT_TAG) as WaitlistElement;
    await vi.waitFor(() => expect(inside(element, 'form')).toBeTruthy());
    submit(element);
    await vi.waitFor(() => expect(seen).toEqual(['WAITLIST-FORM']));
  });

  it('tears down when removed: the request in flight is aborted', async () => {
    let signal: AbortSignal | undefined;
    server.use(
      http.post(ENDPOINT, ({ request }) => {
        signal = request.signal;
        return new Promise<Response>(() => {});
      }),
    );
    document.body.innerHTML = `<waitlist-form waitlist-id="${WAITLIST_ID}" base-url="${BASE_URL}"></waitlist-form>`;
    const element = document.querySelector(DEFAULT_TAG) as WaitlistElement;
    await vi.waitFor(() => expect(inside(element, 'form')).toBeTruthy());
    submit(element);
    await vi.waitFor(() => expect(signal).toBeDefined());
    element.remove();
    await vi.waitFor(() => expect(signal?.aborted).toBe(true));
    expect(element.shadowRoot?.childNodes).toHaveLength(0);
  });

  it('keeps its state when moved within the page', async () => {
    server.use(fakeService().handler);
    document.body.innerHTML = `<div id="a"><waitlist-form waitlist-id="${WAITLIST_ID}" base-url="${BASE_URL}"></waitlist-form></div><div id="b"></div>`;
    const element = document.querySelector(DEFAULT_TAG) as WaitlistElement;
    await vi.waitFor(() => expect(inside(element, 'form')).toBeTruthy());
    submit(element);
    await vi.waitFor(() => expect(inside(element, '[part=status]')?.textContent).toBe(en.success));
    document.querySelector('#b')?.append(element);
    await Promise.resolve();
    await Promise.resolve();
    expect(inside(element, '[part=status]')?.textContent).toBe(en.success);
    element.reset();
    await vi.waitFor(() => expect(inside(element, 'form')).toBeTruthy());
  });

  it('answers a 404 with the fix on the console', async () => {
    server.use(
      http.post(ENDPOINT, () =>
        HttpResponse.json({ error: { code: 'not_found', message: 'x' } }, { status: 404 }),
      ),
    );
    document.body.innerHTML = `<waitlist-form waitlist-id="${WAITLIST_ID}" base-url="${BASE_URL}"></waitlist-form>`;
    const element = document.querySelector(DEFAULT_TAG) as WaitlistElement;
    await vi.waitFor(() => expect(inside(element, 'form')).toBeTruthy());
    submit(element);
    await vi.waitFor(() =>
      expect(logged()).toContain(`--waitlist ${WAITLIST_ID} --origins https://site.example`),
    );
  });
});

describe('the script tag', () => {
  function script(attributes: Record<string, string>, parent: Element = document.body) {
    const element = document.createElement('script');
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    parent.append(element);
    return element;
  }
  /** Runs the script-tag entry as the browser would, with `document.currentScript` set. */
  async function run(current: HTMLScriptElement | null) {
    Object.defineProperty(document, 'currentScript', { value: current, configurable: true });
    try {
      await import('../src/script.js');
    } finally {
      Object.defineProperty(document, 'currentScript', { value: null, configurable: true });
    }
  }

  it('renders the form right after itself, with its data- attributes', async () => {
    const tag = script({ 'data-waitlist-id': WAITLIST_ID, 'data-base-url': BASE_URL, 'data-button': 'Join' });
    await run(tag);
    const element = tag.nextElementSibling as WaitlistElement;
    expect(element.tagName).toBe('WAITLIST-FORM');
    expect(element.getAttribute('button')).toBe('Join');
    await vi.waitFor(() => expect(inside(element, 'button')?.textContent).toBe('Join'));
    expect(errors).not.toHaveBeenCalled();
  });

  it('renders into the element named by data-target', async () => {
    document.body.innerHTML = '<main><section id="signup"></section></main>';
    const tag = script(
      { 'data-waitlist-id': WAITLIST_ID, 'data-base-url': BASE_URL, 'data-target': '#signup' },
      document.head,
    );
    await run(tag);
    const element = document.querySelector('#signup > waitlist-form');
    await vi.waitFor(() => expect(inside(element, 'form')).toBeTruthy());
  });

  it('waits for the page to be parsed before looking for data-target', async () => {
    const tag = script(
      { 'data-waitlist-id': WAITLIST_ID, 'data-base-url': BASE_URL, 'data-target': '#later' },
      document.head,
    );
    Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true });
    try {
      await run(tag);
    } finally {
      Object.defineProperty(document, 'readyState', { value: 'complete', configurable: true });
    }
    document.body.innerHTML = '<section id="later"></section>';
    expect(document.querySelector(DEFAULT_TAG)).toBeNull();
    document.dispatchEvent(new Event('DOMContentLoaded'));
    expect(document.querySelector('#later > waitlist-form')).not.toBeNull();
    expect(errors).not.toHaveBeenCalled();
  });

  it('says what is wrong with its attributes, in the page’s own names', async () => {
    const tag = script({ 'data-base-url': BASE_URL, 'data-theme': 'sepia' });
    await run(tag);
    await vi.waitFor(() => expect(logged()).toContain('data-waitlist-id is missing'));
    expect(logged()).toContain('data-theme "sepia" is not one of auto, light, dark');
  });

  it('reports a target that is not a selector, or matches nothing', async () => {
    await run(script({ 'data-waitlist-id': WAITLIST_ID, 'data-base-url': BASE_URL, 'data-target': '##' }));
    expect(logged()).toContain('data-target "##" is not a valid CSS selector');
    vi.resetModules();
    await run(
      script({ 'data-waitlist-id': WAITLIST_ID, 'data-base-url': BASE_URL, 'data-target': '#nowhere' }),
    );
    expect(logged()).toContain('data-target "#nowhere" matches no element');
  });

  it('refuses to render into <head>', async () => {
    await run(script({ 'data-waitlist-id': WAITLIST_ID, 'data-base-url': BASE_URL }, document.head));
    expect(logged()).toContain('move it into <body>, or name an element with data-target');
    expect(document.querySelector(DEFAULT_TAG)).toBeNull();
  });

  it('without currentScript (a loader ran it), finds the tags not handled yet', async () => {
    const first = script({ 'data-waitlist-id': WAITLIST_ID, 'data-base-url': BASE_URL });
    const second = script({
      'data-waitlist-id': WAITLIST_ID,
      'data-base-url': BASE_URL,
      'data-label': 'Second',
    });
    await run(null);
    expect(first.nextElementSibling?.tagName).toBe('WAITLIST-FORM');
    expect(second.nextElementSibling?.getAttribute('label')).toBe('Second');
    expect(document.querySelectorAll(DEFAULT_TAG)).toHaveLength(2);
  });
});
