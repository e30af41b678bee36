// @vitest-environment happy-dom
/** The form's renderer (src/ui/render.ts): what it keeps, what it writes, and when. */
import { describe, expect, it } from 'vitest';
import { type Child, Component, createRef, Fragment, h, patch } from '../src/ui/render.js';

const root = () => document.createElement('div');

describe('patch', () => {
  it('writes elements, attributes and texts, flattening arrays and fragments, leaving out false, null and empty texts', () => {
    const into = root();
    patch(into, [
      h(
        'form',
        { class: 'w', noValidate: true, 'aria-busy': false, hidden: false, title: null },
        h(Fragment, null, h('label', { for: 'e' }, 'Email'), false, null, ''),
        [h('input', { id: 'e', required: true, maxLength: 254 }), [0, true, undefined]],
      ),
    ]);
    expect(into.innerHTML).toBe(
      '<form class="w" novalidate="" aria-busy="false"><label for="e">Email</label><input id="e" required="" maxlength="254">0</form>',
    );
  });

  it('writes texts as text, never as HTML', () => {
    const into = root();
    patch(into, [h('p', null, '<img src=x onerror=alert(1)>')]);
    expect(into.querySelector('img')).toBeNull();
    expect(into.textContent).toBe('<img src=x onerror=alert(1)>');
  });

  it('keeps an element of the same tag at the same place, with what the visitor did to it', () => {
    const into = document.createElement('div');
    document.body.append(into);
    const view = (error: string) => [
      h(
        'div',
        null,
        h('input', { id: 'e', 'aria-invalid': error ? 'true' : undefined }),
        h('p', null, error),
      ),
    ];
    patch(into, view(''));
    const input = into.querySelector('input') as HTMLInputElement;
    input.value = 'ada@example.com';
    input.focus();
    patch(into, view('Please check.'));
    expect(into.querySelector('input')).toBe(input);
    expect(input.value).toBe('ada@example.com');
    expect(document.activeElement).toBe(input);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(into.querySelector('p')?.textContent).toBe('Please check.');
    // An attribute no longer given goes; so does a child no longer there.
    patch(into, [h('div', null, h('input', { id: 'e' }))]);
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(into.querySelector('p')).toBeNull();
    into.remove();
  });

  it('replaces an element whose tag changed, and the nodes after it follow', () => {
    const into = root();
    patch(into, [h('form', null, h('input', null)), h('p', { role: 'status' }, 'a')]);
    const status = into.querySelector('p');
    patch(into, [h('div', { part: 'share' }), h('p', { role: 'status' }, 'b')]);
    expect(into.innerHTML).toBe('<div part="share"></div><p role="status">b</p>');
    expect(into.querySelector('p')).toBe(status);
    patch(into, []);
    expect(into.childNodes).toHaveLength(0);
  });

  it('sets values and handlers as properties, one handler per event, replaced on each render', () => {
    const into = root();
    const seen: string[] = [];
    patch(into, [h('button', { onClick: () => seen.push('first') })]);
    const button = into.querySelector('button') as HTMLButtonElement;
    patch(into, [h('button', { onClick: () => seen.push('second') })]);
    button.click();
    patch(into, [h('button', {})]);
    button.click();
    expect(seen).toEqual(['second']);
    patch(into, [h('input', { value: 'https://site.example/?ref=K7M2QX', readOnly: true })]);
    const share = into.querySelector('input') as HTMLInputElement;
    expect(share.value).toBe('https://site.example/?ref=K7M2QX');
    expect(share.readOnly).toBe(true);
  });

  it('points a ref at its element, and survives an element that stops having one or a value', () => {
    const ref = createRef<HTMLInputElement>();
    const into = root();
    patch(into, [h('input', { ref, value: 'x' })]);
    expect(ref.current).toBe(into.firstChild);
    patch(into, [h('input', {})]);
    expect((into.firstChild as HTMLInputElement).value).toBe('');
  });
});

describe('Component', () => {
  interface State {
    count: number;
    label?: string;
  }
  class Counter extends Component<{ log: string[] }, State> {
    override state: State = { count: 0 };
    override componentDidMount() {
      this.props.log.push('mounted');
    }
    override componentDidUpdate(_: unknown, before: State) {
      this.props.log.push(`updated from ${before.count} to ${this.state.count}`);
    }
    override componentWillUnmount() {
      this.props.log.push('unmounted');
    }
    override render(_: unknown, { count, label = '' }: State): Child {
      return h('p', null, `${label}${count}`);
    }
  }

  it('renders at mount, merges setState at once, draws once per task, and says what it was before', async () => {
    const log: string[] = [];
    const into = root();
    const counter = new Counter({ log });
    counter.mountIn(into);
    expect(into.textContent).toBe('0');
    counter.setState({ count: 1 });
    counter.setState({ label: 'n=' });
    expect(counter.state).toEqual({ count: 1, label: 'n=' });
    expect(into.textContent).toBe('0');
    await Promise.resolve();
    expect(into.textContent).toBe('n=1');
    expect(log).toEqual(['mounted', 'updated from 0 to 1']);
  });

  it('unmounts: empties its root, and a later setState draws nothing', async () => {
    const log: string[] = [];
    const into = root();
    const counter = new Counter({ log });
    counter.mountIn(into);
    counter.unmount();
    counter.unmount();
    counter.setState({ count: 5 });
    await Promise.resolve();
    expect(into.childNodes).toHaveLength(0);
    expect(log).toEqual(['mounted', 'unmounted']);
  });
});
