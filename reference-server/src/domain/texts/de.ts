import type { PageTexts } from './en.js';

// "du", as German start-ups write to their users; lower-case, as Duden recommends.
export const de: PageTexts = {
  statusTitle: 'Dein Platz bei {waitlist}',
  checkInbox: 'Schau in dein Postfach:',
  checkInboxText:
    'Wir haben dir einen Link geschickt, mit dem du deine E-Mail-Adresse bestätigst. Deinen Platz behältst du, während du wartest.',
  admittedHeading: 'Du bist dabei',
  admittedText:
    '{waitlist} hat dich freigeschaltet: Du musst nicht mehr warten. In Kürze bekommst du eine Nachricht, wie es losgeht.',
  positionOf: {
    one: 'von {count} Person auf der Warteliste',
    other: 'von {count} Personen auf der Warteliste',
  },
  referralCode: 'Dein Empfehlungscode',
  referrals: 'Empfehlungen',
  referralsJoined: {
    one: '{count} Person hat sich mit deinem Code angemeldet',
    other: '{count} Personen haben sich mit deinem Code angemeldet',
  },
  shareHeading: 'Teile deinen Link und rück nach vorn',
  shareLabel: 'Dein Link zum Teilen',
  copyLink: 'Link kopieren',
  linkCopied: 'Link kopiert.',
  copyFailed: 'Kopieren fehlgeschlagen: Markiere den Text und kopiere ihn selbst.',
  notFoundTitle: 'Seite nicht gefunden',
  notFoundText:
    'Dieser Status-Link ist ungültig. Prüfe, ob du den ganzen Link aus deiner Anmeldebestätigung kopiert hast.',

  confirmTitle: 'Bestätige deine E-Mail-Adresse für {waitlist}',
  confirmedHeading: 'Deine E-Mail-Adresse ist bestätigt',
  confirmedText: 'Danke! Du stehst auf der Warteliste von {waitlist} und deine Adresse ist bestätigt.',
  seeYourPlace: 'Zu deinem Platz auf der Warteliste',
  confirmHeading: 'Bestätige deine E-Mail-Adresse',
  confirmText:
    'Drück auf den Button, um zu bestätigen, dass sich diese Adresse für die Warteliste von {waitlist} angemeldet hat. Warst du das nicht, schließ diese Seite einfach: Dann passiert nichts.',
  confirmButton: 'E-Mail-Adresse bestätigen',
  badLinkTitle: 'Link ungültig',
  badLinkHeading: 'Dieser Link ist ungültig',
  badLinkText:
    'Prüfe, ob du den ganzen Link aus der Bestätigungs-E-Mail geöffnet hast, oder melde dich noch einmal an, um einen neuen zu bekommen.',
  tooManyHeading: 'Zu viele Versuche',
  tooManyText:
    'Von dieser Verbindung aus wurde zu oft bestätigt. Warte eine Minute und drück den Button dann noch einmal.',

  unsubscribeTitle: 'Von {waitlist} abmelden',
  unsubscribedHeading: 'Du bist abgemeldet',
  unsubscribedText:
    'Die Warteliste von {waitlist} schickt dir keine Willkommens- oder Empfehlungs-E-Mails mehr. Deinen Platz behältst du, und du erfährst weiterhin, wenn du freigeschaltet wirst.',
  unsubscribeHeading: 'Abmelden',
  unsubscribeText:
    'Drück auf den Button, um keine Willkommens- und Empfehlungs-E-Mails der Warteliste von {waitlist} mehr zu bekommen. Deinen Platz behältst du, und du erfährst weiterhin, wenn du freigeschaltet wirst.',
  unsubscribeButton: 'Abmelden',

  confirmMailSubject: 'Bestätige deine E-Mail-Adresse für {waitlist}',
  confirmMailIntro:
    'Jemand – hoffentlich du – hat sich mit dieser E-Mail-Adresse für die Warteliste von {waitlist} angemeldet.',
  confirmMailOpen: 'Zum Bestätigen öffne diesen Link und drück auf den Button:',
  confirmMailOr: 'Oder öffne diesen Link:',
  confirmMailKeep:
    'Deinen Platz behältst du so oder so; mit der Bestätigung zählst du für die Person, die dich empfohlen hat.',
  confirmMailIgnore:
    'Warst du das nicht, ignoriere diese E-Mail: Wir schicken nichts weiter, solange sich niemand erneut anmeldet.',

  stopEmails: 'Diese E-Mails abbestellen: {link}',

  welcomeSubject: 'Du stehst auf der Warteliste von {{waitlist_name}}',
  welcomeBody:
    'Danke für deine Anmeldung bei {{waitlist_name}}. Du bist Nummer {{position}} auf der Warteliste.\n\nWir melden uns wieder, sobald du an der Reihe bist.',
  referralSubject: 'Über dich hat sich jemand bei {{waitlist_name}} angemeldet',
  referralBody:
    'Danke, dass du {{waitlist_name}} weiterempfiehlst. Bisher über dich angemeldet: {{referral_count}}. Du bist jetzt Nummer {{position}} auf der Warteliste.',
  admittedSubject: 'Du bist dabei: {{waitlist_name}}',
  admittedBody:
    'Gute Nachrichten: {{waitlist_name}} hat dich freigeschaltet. Hier geht es los: {{access_url}}',
};
