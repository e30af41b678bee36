import type { PageTexts } from './en.js';

export const nb: PageTexts = {
  statusTitle: 'Din plass hos {waitlist}',
  checkInbox: 'Sjekk innboksen din:',
  checkInboxText:
    'vi har sendt deg en lenke for å bekrefte e-postadressen din. Du beholder plassen din mens du venter.',
  admittedHeading: 'Du er med',
  admittedText:
    '{waitlist} har sluppet deg inn: du trenger ikke vente lenger. Hold utkikk etter meldingen deres om hvordan du kommer i gang.',
  positionOf: { one: 'av {count} person på ventelisten', other: 'av {count} personer på ventelisten' },
  referralCode: 'Invitasjonskoden din',
  referrals: 'Invitasjoner',
  referralsJoined: {
    one: '{count} person har meldt seg på med koden din',
    other: '{count} personer har meldt seg på med koden din',
  },
  shareHeading: 'Del lenken din og rykk fram i køen',
  shareLabel: 'Delingslenken din',
  copyLink: 'Kopier lenke',
  linkCopied: 'Lenken er kopiert.',
  copyFailed: 'Kopieringen mislyktes: merk teksten og kopier den.',
  notFoundTitle: 'Fant ikke siden',
  notFoundText:
    'Denne statuslenken er ikke gyldig. Sjekk at du kopierte hele lenken fra bekreftelsen på påmeldingen din.',

  confirmTitle: 'Bekreft e-posten din for {waitlist}',
  confirmedHeading: 'E-posten din er bekreftet',
  confirmedText: 'Takk! Du står på ventelisten til {waitlist}, og adressen din er bekreftet.',
  seeYourPlace: 'Se plassen din i køen',
  confirmHeading: 'Bekreft e-posten din',
  confirmText:
    'Trykk på knappen for å bekrefte at denne adressen meldte seg på ventelisten til {waitlist}. Hvis det ikke var deg, kan du bare lukke siden: ingenting skjer.',
  confirmButton: 'Bekreft e-posten min',
  badLinkTitle: 'Ugyldig lenke',
  badLinkHeading: 'Denne lenken er ikke gyldig',
  badLinkText:
    'Sjekk at du åpnet hele lenken fra bekreftelsesmeldingen, eller meld deg på igjen for å få en ny.',
  tooManyHeading: 'For mange forsøk',
  tooManyText:
    'Det er forsøkt bekreftet for mange ganger fra denne tilkoblingen. Vent et minutt, og trykk på knappen igjen.',

  unsubscribeTitle: 'Meld deg av e-poster fra {waitlist}',
  unsubscribedHeading: 'Du er meldt av',
  unsubscribedText:
    'Ventelisten til {waitlist} sender deg ikke lenger velkomst- og invitasjonsmeldinger. Du beholder plassen din i køen og får fortsatt beskjed når du slippes inn.',
  unsubscribeHeading: 'Meld deg av',
  unsubscribeText:
    'Trykk på knappen for å slutte å få velkomst- og invitasjonsmeldinger fra ventelisten til {waitlist}. Du beholder plassen din i køen og får fortsatt beskjed når du slippes inn.',
  unsubscribeButton: 'Meld meg av',

  confirmMailSubject: 'Bekreft e-posten din for {waitlist}',
  confirmMailIntro:
    'Noen, forhåpentligvis du, har meldt seg på ventelisten til {waitlist} med denne e-postadressen.',
  confirmMailOpen: 'For å bekrefte åpner du denne lenken og trykker på knappen:',
  confirmMailOr: 'Eller åpne denne lenken:',
  confirmMailKeep:
    'Du beholder plassen din i køen uansett; når du bekrefter, teller du for den som inviterte deg.',
  confirmMailIgnore:
    'Hvis det ikke var deg, kan du se bort fra denne e-posten: vi sender ikke noe mer med mindre noen melder seg på igjen.',

  stopEmails: 'Slutt å få disse e-postene: {link}',

  welcomeSubject: 'Du står på ventelisten til {{waitlist_name}}',
  welcomeBody:
    'Takk for at du meldte deg på {{waitlist_name}}. Du er nummer {{position}} i køen.\n\nVi skriver til deg igjen når det er din tur.',
  referralSubject: 'Noen har meldt seg på {{waitlist_name}} via deg',
  referralBody:
    'Takk for at du deler {{waitlist_name}}. Antall personer som har meldt seg på via deg så langt: {{referral_count}}. Du er nå nummer {{position}} i køen.',
  admittedSubject: 'Du er med: {{waitlist_name}}',
  admittedBody: 'Gode nyheter: {{waitlist_name}} har sluppet deg inn. Kom i gang her: {{access_url}}',
};
