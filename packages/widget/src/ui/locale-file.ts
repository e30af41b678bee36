/**
 * A language's texts, from its file beside the script (`locales/<tag>.json`): fetched once per
 * page load however many forms ask, and checked whole, since a file that is not ours (an HTML
 * error page, a key this version does not know) must not half-translate the form.
 */
import { type Locale, mergeLocale } from './locale.js';

/**
 * How long the first render waits for a locale file asked for at the same moment. From a nearby
 * server the file comes well within it, and the form is drawn once, in its language: no English
 * frame, no second layout of longer words (a layout shift on the host's page). From a far one the
 * form is drawn in English when the wait ends and switches when the file comes. Under 100 ms a
 * delay reads as instant (docs/languages.md#the-widget).
 */
export const LOCALE_WAIT_MS = 100;

const files = new Map<string, Promise<Partial<Locale> | undefined>>();

/** The file's texts, or undefined (with a hint on the console) when it cannot be used. */
export function loadLocale(url: string, fetcher: typeof fetch = fetch): Promise<Partial<Locale> | undefined> {
  let file = files.get(url);
  if (!file) {
    file = fetcher(url)
      .then(async (response) => {
        if (!response.ok) throw `HTTP ${response.status}`;
        const json: unknown = await response.json();
        if (typeof json !== 'object' || !json || Array.isArray(json)) throw 'not an object of texts';
        const problems: string[] = [];
        const texts = mergeLocale({}, json, problems);
        if (problems[0]) throw problems[0];
        return texts;
      })
      .catch((error) => {
        console.warn(`Waitlist widget: ${url} could not be used (${error}); the form stays in English.`);
        return undefined;
      });
    files.set(url, file);
  }
  return file;
}
