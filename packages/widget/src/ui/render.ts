/**
 * The form's renderer: the part of preact's API the form uses (`h`, `Fragment`, `createRef`, a
 * class `Component` with `setState` and its lifecycle), in place of preact, whose 4.4 kB gzipped
 * were close to a third of the script tag's 15 kB budget.
 *
 * Children are matched by position and tag, never by key: the form's tree is small and changes
 * shape only between its views, where a different tag replaces the old element. An element kept
 * keeps what the visitor did to it (typed text, focus, a ticked box): only the attributes and
 * properties the form names are written, and texts are written as text, never as HTML.
 */

export type Child = VNode | string | number | boolean | null | undefined | Child[];
type Props = Record<string, unknown>;

export interface VNode {
  type: string | typeof Fragment;
  props: Props;
  children: Child[];
}

export interface Ref<T> {
  current: T | null;
}

/** `<>…</>`: its children take its place. */
export function Fragment(): void {}

export function h(type: VNode['type'], props: Props | null, ...children: Child[]): VNode {
  return { type, props: props ?? {}, children };
}

/** The JSX types of the `h` factory, where TypeScript looks them up. */
export declare namespace h {
  namespace JSX {
    type Element = VNode;
    interface IntrinsicElements {
      [tag: string]: Props & { ref?: { current: unknown }; children?: Child };
    }
    interface ElementChildrenAttribute {
      children: unknown;
    }
  }
}

export const createRef = <T>(): Ref<T> => ({ current: null });

/** Elements and texts, in order: arrays and fragments flattened, `false`, `null` and `''` left out. */
function flatten(children: Child[], into: (VNode | string)[] = []): (VNode | string)[] {
  for (const child of children) {
    if (Array.isArray(child)) flatten(child, into);
    else if (typeof child === 'object' && child?.type === Fragment) flatten(child.children, into);
    else if (typeof child === 'object' && child) into.push(child);
    else if (child !== '' && (typeof child === 'string' || typeof child === 'number'))
      into.push(String(child));
  }
  return into;
}

/** What each element was last given, so a name the form stops giving is removed. */
const given = new WeakMap<Element, Props>();

function setProps(element: Element, props: Props): void {
  const target = element as unknown as Props;
  for (const name in { ...given.get(element), ...props }) {
    const value = props[name];
    // A boolean attribute (`required`) is there or not; an ARIA state is spelt "true" or "false".
    const aria = name.startsWith('aria-');
    if (name === 'ref') {
      if (value) (value as Ref<Element>).current = element;
    } else if (name.startsWith('on')) {
      // `onSubmit` → `onsubmit`: one handler per event, replaced on each render.
      target[name.toLowerCase()] = value ?? null;
    } else if (name === 'value') {
      // A property: once typed into, an input's value is no longer its attribute.
      target.value = value ?? '';
    } else if (value == null || (value === false && !aria)) {
      element.removeAttribute(name);
    } else {
      element.setAttribute(name, value === true && !aria ? '' : String(value));
    }
  }
  given.set(element, props);
}

/** Makes `parent`'s children those of `children`, reusing each node of the same kind at the same place. */
export function patch(parent: ParentNode, children: Child[]): void {
  const wanted = flatten(children);
  wanted.forEach((child, index) => {
    const node = parent.childNodes[index];
    let next: Node;
    if (typeof child === 'string') {
      if (node?.nodeType === 3) {
        if ((node as Text).data !== child) (node as Text).data = child;
        return;
      }
      next = document.createTextNode(child);
    } else {
      const element =
        (node as Element | undefined)?.localName === child.type
          ? (node as Element)
          : document.createElement(child.type as string);
      setProps(element, child.props);
      patch(element, child.children);
      if (element === node) return;
      next = element;
    }
    if (node) parent.replaceChild(next, node);
    else parent.appendChild(next);
  });
  while (parent.childNodes.length > wanted.length) parent.lastChild?.remove();
}

/**
 * A class component rendered into a root of its own. `setState` merges at once (callbacks read
 * the state they set) and renders once per task, then `componentDidUpdate` sees the state before.
 */
export class Component<P, S> {
  state = {} as S;
  #root?: ParentNode;
  /** The state before the changes waiting to be rendered. */
  #before?: S;

  constructor(public props: P) {}

  render(_props: P, _state: S): Child {
    return null;
  }

  componentDidMount(): void {}

  componentDidUpdate(_props: P, _before: S): void {}

  componentWillUnmount(): void {}

  setState(changes: Partial<S>): void {
    this.#before ??= this.state;
    this.state = { ...this.state, ...changes };
    queueMicrotask(() => {
      const before = this.#before;
      if (!before || !this.#root) return;
      this.#before = undefined;
      this.#draw();
      this.componentDidUpdate(this.props, before);
    });
  }

  #draw(): void {
    patch(this.#root as ParentNode, [this.render(this.props, this.state)]);
  }

  /** Renders into `root` (whose children it owns) and calls `componentDidMount`. */
  mountIn(root: ParentNode): void {
    this.#root = root;
    this.#draw();
    this.componentDidMount();
  }

  /** Calls `componentWillUnmount` and empties the root; later `setState`s render nothing. */
  unmount(): void {
    if (!this.#root) return;
    this.componentWillUnmount();
    patch(this.#root, []);
    this.#root = undefined;
  }
}
