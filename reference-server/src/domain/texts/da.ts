import type { PageTexts } from './en.js';

export const da: PageTexts = {
  statusTitle: 'Din plads hos {waitlist}',
  checkInbox: 'Tjek din indbakke:',
  checkInboxText:
    'vi har sendt dig et link, så du kan bekræfte din e-mailadresse. Du beholder din plads, mens du venter.',
  admittedHeading: 'Du er med',
  admittedText:
    '{waitlist} har lukket dig ind: du venter ikke længere. Hold øje med deres besked om, hvordan du kommer i gang.',
  positionOf: { one: 'ud af {count} person på ventelisten', other: 'ud af {count} personer på ventelisten' },
  referralCode: 'Din invitationskode',
  referrals: 'Invitationer',
  referralsJoined: {
    one: '{count} person har tilmeldt sig med din kode',
    other: '{count} personer har tilmeldt sig med din kode',
  },
  shareHeading: 'Del dit link, og ryk frem i køen',
  shareLabel: 'Dit delingslink',
  copyLink: 'Kopiér link',
  linkCopied: 'Linket er kopieret.',
  copyFailed: 'Kopieringen mislykkedes: markér teksten, og kopiér den.',
  notFoundTitle: 'Siden blev ikke fundet',
  notFoundText:
    'Dette statuslink er ikke gyldigt. Tjek, at du har kopieret hele linket fra bekræftelsen af din tilmelding.',

  confirmTitle: 'Bekræft din e-mail til {waitlist}',
  confirmedHeading: 'Din e-mail er bekræftet',
  confirmedText: 'Tak! Du er på ventelisten til {waitlist}, og din adresse er bekræftet.',
  seeYourPlace: 'Se din plads i køen',
  confirmHeading: 'Bekræft din e-mail',
  confirmText:
    'Tryk på knappen for at bekræfte, at denne adresse har tilmeldt sig ventelisten til {waitlist}. Hvis det ikke var dig, så luk siden: der sker ikke noget.',
  confirmButton: 'Bekræft min e-mail',
  badLinkTitle: 'Ugyldigt link',
  badLinkHeading: 'Dette link er ikke gyldigt',
  badLinkText:
    'Tjek, at du har åbnet hele linket fra bekræftelsesmailen, eller tilmeld dig igen for at få et nyt.',
  tooManyHeading: 'For mange forsøg',
  tooManyText:
    'Der er forsøgt bekræftet for mange gange fra denne forbindelse. Vent et minut, og tryk så på knappen igen.',

  unsubscribeTitle: 'Afmeld mails fra {waitlist}',
  unsubscribedHeading: 'Du er afmeldt',
  unsubscribedText:
    'Ventelisten til {waitlist} sender dig ikke flere velkomst- eller invitationsmails. Du beholder din plads i køen og får stadig besked, når du bliver lukket ind.',
  unsubscribeHeading: 'Afmeld mails',
  unsubscribeText:
    'Tryk på knappen for at stoppe velkomst- og invitationsmails fra ventelisten til {waitlist}. Du beholder din plads i køen og får stadig besked, når du bliver lukket ind.',
  unsubscribeButton: 'Afmeld',

  confirmMailSubject: 'Bekræft din e-mail til {waitlist}',
  confirmMailIntro:
    'Nogen, forhåbentlig dig, har tilmeldt sig ventelisten til {waitlist} med denne e-mailadresse.',
  confirmMailOpen: 'Åbn dette link, og tryk på knappen for at bekræfte:',
  confirmMailOr: 'Eller åbn dette link:',
  confirmMailKeep:
    'Du beholder din plads i køen uanset hvad; når du bekræfter, tæller du med for den, der inviterede dig.',
  confirmMailIgnore:
    'Hvis det ikke var dig, kan du se bort fra denne mail: vi sender ikke mere, medmindre nogen tilmelder sig igen.',

  stopEmails: 'Afmeld disse mails: {link}',

  welcomeSubject: 'Du er på ventelisten til {{waitlist_name}}',
  welcomeBody:
    'Tak for din tilmelding til {{waitlist_name}}. Du er nummer {{position}} i køen.\n\nVi skriver til dig igen, når det er din tur.',
  referralSubject: 'Nogen har tilmeldt sig {{waitlist_name}} via dig',
  referralBody:
    'Tak, fordi du deler {{waitlist_name}}. Antal personer, der indtil nu har tilmeldt sig via dig: {{referral_count}}. Du er nu nummer {{position}} i køen.',
  admittedSubject: 'Du er med: {{waitlist_name}}',
  admittedBody: 'Gode nyheder: {{waitlist_name}} har lukket dig ind. Kom i gang her: {{access_url}}',
};
