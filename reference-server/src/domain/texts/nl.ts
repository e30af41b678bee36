import type { PageTexts } from './en.js';

// "je", as Dutch start-ups write.
export const nl: PageTexts = {
  statusTitle: 'Je plek bij {waitlist}',
  checkInbox: 'Kijk in je inbox:',
  checkInboxText:
    'we hebben je een link gestuurd om je e-mailadres te bevestigen. Je houdt je plek terwijl je wacht.',
  admittedHeading: 'Je bent binnen',
  admittedText:
    '{waitlist} heeft je toegelaten: je hoeft niet meer te wachten. Let op hun bericht over hoe je begint.',
  positionOf: { one: 'van {count} persoon op de wachtlijst', other: 'van {count} mensen op de wachtlijst' },
  referralCode: 'Je uitnodigingscode',
  referrals: 'Uitnodigingen',
  referralsJoined: {
    one: '{count} persoon heeft zich met je code aangemeld',
    other: '{count} mensen hebben zich met je code aangemeld',
  },
  shareHeading: 'Deel je link en schuif op',
  shareLabel: 'Je deellink',
  copyLink: 'Link kopiëren',
  linkCopied: 'Link gekopieerd.',
  copyFailed: 'Kopiëren mislukt: selecteer de tekst en kopieer hem zelf.',
  notFoundTitle: 'Pagina niet gevonden',
  notFoundText:
    'Deze statuslink is niet geldig. Controleer of je de hele link uit je aanmeldbevestiging hebt gekopieerd.',

  confirmTitle: 'Bevestig je e-mailadres voor {waitlist}',
  confirmedHeading: 'Je e-mailadres is bevestigd',
  confirmedText: 'Bedankt: je staat op de wachtlijst van {waitlist} en je adres is bevestigd.',
  seeYourPlace: 'Bekijk je plek in de rij',
  confirmHeading: 'Bevestig je e-mailadres',
  confirmText:
    'Druk op de knop om te bevestigen dat dit adres zich heeft aangemeld voor de wachtlijst van {waitlist}. Was jij dit niet? Sluit dan deze pagina: er gebeurt niets.',
  confirmButton: 'Mijn e-mailadres bevestigen',
  badLinkTitle: 'Ongeldige link',
  badLinkHeading: 'Deze link is niet geldig',
  badLinkText:
    'Controleer of je de hele link uit de bevestigingsmail hebt geopend, of meld je opnieuw aan voor een nieuwe.',
  tooManyHeading: 'Te veel pogingen',
  tooManyText:
    'Vanaf deze verbinding is te vaak geprobeerd te bevestigen. Wacht een minuut en druk dan opnieuw op de knop.',

  unsubscribeTitle: 'Afmelden voor e-mails van {waitlist}',
  unsubscribedHeading: 'Je bent afgemeld',
  unsubscribedText:
    'De wachtlijst van {waitlist} stuurt je geen welkomst- of uitnodigingsmails meer. Je houdt je plek in de rij en hoort nog steeds wanneer je wordt toegelaten.',
  unsubscribeHeading: 'Afmelden',
  unsubscribeText:
    'Druk op de knop om geen welkomst- en uitnodigingsmails van de wachtlijst van {waitlist} meer te ontvangen. Je houdt je plek in de rij en hoort nog steeds wanneer je wordt toegelaten.',
  unsubscribeButton: 'Afmelden',

  confirmMailSubject: 'Bevestig je e-mailadres voor {waitlist}',
  confirmMailIntro:
    'Iemand, hopelijk jij, heeft zich met dit e-mailadres aangemeld voor de wachtlijst van {waitlist}.',
  confirmMailOpen: 'Open deze link en druk op de knop om het te bevestigen:',
  confirmMailOr: 'Of open deze link:',
  confirmMailKeep:
    'Je houdt hoe dan ook je plek in de rij; als je bevestigt, tel je mee voor wie je heeft uitgenodigd.',
  confirmMailIgnore:
    'Was jij dit niet? Negeer deze e-mail dan: we sturen niets meer, tenzij iemand zich opnieuw aanmeldt.',

  stopEmails: 'Geen e-mails meer ontvangen: {link}',

  welcomeSubject: 'Je staat op de wachtlijst van {{waitlist_name}}',
  welcomeBody:
    'Bedankt voor je aanmelding bij {{waitlist_name}}. Je bent nummer {{position}} in de rij.\n\nWe laten weer van ons horen zodra het jouw beurt is.',
  referralSubject: 'Iemand heeft zich via jou aangemeld bij {{waitlist_name}}',
  referralBody:
    'Bedankt dat je {{waitlist_name}} deelt. Aantal mensen dat zich tot nu toe via jou heeft aangemeld: {{referral_count}}. Je bent nu nummer {{position}} in de rij.',
  admittedSubject: 'Je bent binnen: {{waitlist_name}}',
  admittedBody: 'Goed nieuws: {{waitlist_name}} heeft je toegelaten. Begin hier: {{access_url}}',
};
