/**
 * The script-tag build: `<script src=".../waitlist.js" data-waitlist-id="wl_…"
 * data-base-url="https://…" async>`. Renders the form right after the script, or into the
 * element named by `data-target`. Everything (preact, the form, the solver and its worker code)
 * is in this one file: no second request, no third-party host.
 */
import { DEFAULT_TAG, defineWaitlistElement, type WaitlistElement } from './ui/element.js';
import { ATTRIBUTES, show } from './ui/options.js';

const fail = (message: string) => console.error(`Waitlist widget: ${message}`);

function place(script: HTMLScriptElement): void {
  script.dataset.waitlistMounted = '';
  const element = document.createElement(DEFAULT_TAG) as WaitlistElement;
  element.attributePrefix = 'data-';
  // The locale files are beside the script, wherever it is served from (docs/languages.md#the-widget).
  if (script.src) element.locales = new URL('locales/', script.src).href;
  for (const name of ATTRIBUTES) {
    const value = script.getAttribute(`data-${name}`);
    if (value !== null) element.setAttribute(name, value);
  }
  const target = script.getAttribute('data-target');
  if (!target) {
    if (script.closest('head'))
      fail('the script is in <head>: move it into <body>, or name an element with data-target.');
    else script.after(element);
    return;
  }
  const insert = () => {
    let host: Element | null = null;
    try {
      host = document.querySelector(target);
    } catch {
      return fail(`data-target ${show(target)} is not a valid CSS selector.`);
    }
    if (host) host.append(element);
    else fail(`data-target ${show(target)} matches no element.`);
  };
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', insert, { once: true });
  else insert();
}

try {
  defineWaitlistElement(DEFAULT_TAG);
  // `currentScript` is set while this (even async) script runs; a loader that evaluates it
  // differently leaves it null, so fall back to the tags not handled yet.
  const current = document.currentScript as HTMLScriptElement | null;
  const scripts = current
    ? [current]
    : [
        ...document.querySelectorAll<HTMLScriptElement>(
          'script[data-waitlist-id]:not([data-waitlist-mounted])',
        ),
      ];
  for (const script of scripts) place(script);
} catch (error) {
  console.error('Waitlist widget:', error);
}
