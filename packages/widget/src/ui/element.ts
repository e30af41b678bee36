/**
 * `<waitlist-form waitlist-id="wl_…" base-url="https://…">`: the form from markup. Created lazily
 * by `defineWaitlistElement`, so importing the package never touches `HTMLElement` (SSR, Node).
 * Attribute problems go to the console; nothing is thrown into the page.
 */
import { mountConfig, type WaitlistHandle } from './mount.js';
import { ATTRIBUTES, attributeName, optionsFromAttributes, resolveOptions } from './options.js';

export const DEFAULT_TAG = 'waitlist-form';

export interface WaitlistElement extends HTMLElement {
  /** Back to an empty form. */
  reset(): void;
  /** How the page names the attributes in console messages (`data-` when made by the script tag). */
  attributePrefix: string;
  /** Where the locale files are (set by the script tag: beside it); default the service's. */
  locales?: string;
}

/** Defines the custom element (once per name; a second call is a no-op). */
export function defineWaitlistElement(name: string = DEFAULT_TAG): void {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;

  class Element extends HTMLElement implements WaitlistElement {
    static observedAttributes = ATTRIBUTES;
    attributePrefix = '';
    locales?: string;
    #handle?: WaitlistHandle;
    #scheduled = false;
    #stale = true;

    connectedCallback(): void {
      this.#schedule();
    }

    disconnectedCallback(): void {
      this.#schedule();
    }

    attributeChangedCallback(): void {
      this.#stale = true;
      this.#schedule();
    }

    reset(): void {
      this.#handle?.reset();
    }

    /**
     * One update per task: the parser reports each attribute, and a move in the DOM is a
     * disconnect followed by a connect, which must not lose the form's state.
     */
    #schedule(): void {
      if (this.#scheduled) return;
      this.#scheduled = true;
      queueMicrotask(() => {
        this.#scheduled = false;
        if (!this.isConnected) {
          this.#handle?.destroy();
          this.#handle = undefined;
          this.#stale = true;
        } else if (this.#stale) {
          this.#stale = false;
          this.#handle?.destroy();
          this.#handle = undefined;
          this.#mount();
        }
      });
    }

    #mount(): void {
      try {
        const problems: string[] = [];
        const nameOf = attributeName(this.attributePrefix);
        const options = optionsFromAttributes((attribute) => this.getAttribute(attribute), problems, nameOf);
        const config = resolveOptions(options, problems, nameOf);
        for (const problem of problems) console.error(`Waitlist widget: ${problem}`);
        if (config) this.#handle = mountConfig(this, config, this.locales);
      } catch (error) {
        console.error('Waitlist widget:', error);
      }
    }
  }

  customElements.define(name, Element);
}
