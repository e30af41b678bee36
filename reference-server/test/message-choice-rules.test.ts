/** Which text of a message a subscriber gets (domain/message-choice.ts), without a store. */
import { LANGUAGES } from '@waitlistkit/protocol';
import { describe, expect, it } from 'vitest';
import { chooseText, defaultTemplate, isOn, NEUTRAL, type Versions } from '../src/domain/message-choice.js';
import { checkMessage, MESSAGE_KINDS } from '../src/domain/messages.js';

const version = (subject: string, enabled = true) => ({ subject, body: `${subject} body`, enabled });

describe('the text a subscriber gets', () => {
  const versions: Versions = new Map([
    [NEUTRAL, version('Own')],
    ['de', version('Deutsch')],
  ]);

  it('is the version in their language when one is saved', () => {
    expect(chooseText('welcome', 'de', versions, 'en')).toEqual({
      subject: 'Deutsch',
      body: 'Deutsch body',
      from: 'language',
    });
    // Even when the waitlist's own is in German too: the explicit version is nearer.
    expect(chooseText('welcome', 'de', versions, 'de').from).toBe('language');
  });

  it('else, in the waitlist’s default language, the waitlist’s own version', () => {
    expect(chooseText('welcome', 'fr', versions, 'fr')).toEqual({
      subject: 'Own',
      body: 'Own body',
      from: 'waitlist',
    });
  });

  it('else our default template in their language: the waitlist’s own is not sent in another language', () => {
    expect(chooseText('welcome', 'fr', versions, 'en')).toEqual({
      ...defaultTemplate('welcome', 'fr'),
      from: 'default',
    });
    const onlyGerman: Versions = new Map([['de', version('Deutsch')]]);
    expect(chooseText('admitted', 'fr', onlyGerman, 'fr')).toEqual({
      ...defaultTemplate('admitted', 'fr'),
      from: 'default',
    });
    expect(chooseText('referral', 'ja', new Map(), 'ja')).toEqual({
      ...defaultTemplate('referral', 'ja'),
      from: 'default',
    });
  });

  it('our defaults exist for every kind in every supported language, each one a message a waitlist could keep', () => {
    for (const kind of MESSAGE_KINDS) {
      for (const lang of LANGUAGES) {
        const template = defaultTemplate(kind, lang);
        expect(checkMessage({ ...template, enabled: true }, []).ok, `${kind} in ${lang}`).toBe(true);
      }
    }
    expect(defaultTemplate('welcome', 'en').subject).toBe("You're on the {{waitlist_name}} waitlist");
  });
});

describe('whether a message is sent', () => {
  it('is one switch per kind: on when its versions are, off with none saved', () => {
    expect(isOn(new Map())).toBe(false);
    expect(isOn(new Map([['de', version('D')]]))).toBe(true);
    expect(
      isOn(
        new Map([
          [NEUTRAL, version('O', false)],
          ['de', version('D', false)],
        ]),
      ),
    ).toBe(false);
  });
});
