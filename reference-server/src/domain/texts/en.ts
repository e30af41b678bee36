/**
 * What the service's own pages and mails say, in English: the catalogue every language translates
 * (docs/languages.md#adding-a-language). `{waitlist}` is the waitlist's name, `{count}` a number
 * that chooses the plural form, `{link}` an address. A translation keeps every placeholder.
 */
import type { Plural } from '../say.js';

export const en = {
  // The status page, /s/<token>
  statusTitle: 'Your place on {waitlist}',
  checkInbox: 'Check your inbox:',
  checkInboxText: 'we sent you a link to confirm your email address. You keep your place while you wait.',
  admittedHeading: "You're in",
  admittedText:
    '{waitlist} has let you in: you are no longer waiting. Look out for their message on how to get started.',
  /** Under the big `#{position}`. */
  positionOf: { one: 'of {count} person on the waitlist', other: 'of {count} people on the waitlist' },
  referralCode: 'Your referral code',
  referrals: 'Referrals',
  referralsJoined: {
    one: '{count} person has joined with your code',
    other: '{count} people have joined with your code',
  },
  shareHeading: 'Share your link to move up',
  shareLabel: 'Your share link',
  copyLink: 'Copy link',
  linkCopied: 'Link copied.',
  copyFailed: 'Copy failed: select the text and copy it.',
  notFoundTitle: 'Page not found',
  notFoundText:
    'This status link is not valid. Check that you copied the whole link from your sign-up confirmation.',

  // The confirmation page, /c/<token>
  confirmTitle: 'Confirm your email for {waitlist}',
  confirmedHeading: 'Your email is confirmed',
  confirmedText: 'Thank you: you are on the {waitlist} waitlist, and your address is confirmed.',
  seeYourPlace: 'See your place in line',
  confirmHeading: 'Confirm your email',
  confirmText:
    "Press the button to confirm that this address signed up for the {waitlist} waitlist. If it wasn't you, close this page: nothing happens.",
  confirmButton: 'Confirm my email',
  badLinkTitle: 'Link not valid',
  badLinkHeading: 'This link is not valid',
  badLinkText:
    'Check that you opened the whole link from the confirmation email, or sign up again to get a new one.',
  tooManyHeading: 'Too many attempts',
  tooManyText:
    'This address has pressed confirmation buttons too often. Wait a minute, then press the button again.',

  // The unsubscribe page, /s/<token>/unsubscribe
  unsubscribeTitle: 'Unsubscribe from {waitlist}',
  unsubscribedHeading: 'You are unsubscribed',
  unsubscribedText:
    'The {waitlist} waitlist sends you no more welcome or referral emails. You keep your place in line, and you still hear when you are let in.',
  unsubscribeHeading: 'Unsubscribe',
  unsubscribeText:
    'Press the button to stop the welcome and referral emails of the {waitlist} waitlist. You keep your place in line, and you still hear when you are let in.',
  unsubscribeButton: 'Unsubscribe',

  // The confirmation mail
  confirmMailSubject: 'Confirm your email for {waitlist}',
  confirmMailIntro: 'Someone, hopefully you, signed up for the {waitlist} waitlist with this email address.',
  confirmMailOpen: 'To confirm it, open this link and press the button:',
  confirmMailOr: 'Or open this link:',
  confirmMailKeep: 'You keep your place in line either way; confirming counts you for whoever referred you.',
  confirmMailIgnore:
    "If it wasn't you, ignore this email: nothing more will be sent unless someone signs up again.",

  // Under a welcome or referral mail
  stopEmails: 'To stop these emails: {link}',

  // The messages a waitlist sends until its operators write their own (docs/messages.md): templates
  // with `{{merge tags}}`, filled when sent. Worded to read well for any count, since a template has
  // no plural forms.
  welcomeSubject: "You're on the {{waitlist_name}} waitlist",
  welcomeBody:
    'Thank you for signing up for {{waitlist_name}}. You are number {{position}} in line.\n\nWe will write to you again when it is your turn.',
  referralSubject: 'Someone joined {{waitlist_name}} through you',
  referralBody:
    'Thank you for sharing {{waitlist_name}}. People who have joined through you so far: {{referral_count}}. You are now number {{position}} in line.',
  admittedSubject: "You're in: {{waitlist_name}}",
  admittedBody: 'Good news: {{waitlist_name}} has let you in. Start here: {{access_url}}',
};

/** What every language's catalogue holds: each key of English, a text or plural forms as English has. */
export type PageTexts = { [K in keyof typeof en]: (typeof en)[K] extends string ? string : Plural };
