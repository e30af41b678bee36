import type { PageTexts } from './en.js';

export const sv: PageTexts = {
  statusTitle: 'Din plats hos {waitlist}',
  checkInbox: 'Titta i din inkorg:',
  checkInboxText:
    'vi har skickat en länk för att bekräfta din e-postadress. Du behåller din plats medan du väntar.',
  admittedHeading: 'Du är med',
  admittedText:
    '{waitlist} har släppt in dig: du behöver inte vänta längre. Håll utkik efter deras meddelande om hur du kommer igång.',
  positionOf: { one: 'av {count} person på väntelistan', other: 'av {count} personer på väntelistan' },
  referralCode: 'Din inbjudningskod',
  referrals: 'Inbjudningar',
  referralsJoined: {
    one: '{count} person har anmält sig med din kod',
    other: '{count} personer har anmält sig med din kod',
  },
  shareHeading: 'Dela din länk och flytta fram',
  shareLabel: 'Din delningslänk',
  copyLink: 'Kopiera länk',
  linkCopied: 'Länken har kopierats.',
  copyFailed: 'Det gick inte att kopiera: markera texten och kopiera den.',
  notFoundTitle: 'Sidan hittades inte',
  notFoundText:
    'Den här statuslänken är inte giltig. Kontrollera att du kopierade hela länken från bekräftelsen av din anmälan.',

  confirmTitle: 'Bekräfta din e-postadress för {waitlist}',
  confirmedHeading: 'Din e-postadress är bekräftad',
  confirmedText: 'Tack! Du står på väntelistan för {waitlist} och din adress är bekräftad.',
  seeYourPlace: 'Se din plats i kön',
  confirmHeading: 'Bekräfta din e-postadress',
  confirmText:
    'Tryck på knappen för att bekräfta att den här adressen anmälde sig till väntelistan för {waitlist}. Om det inte var du kan du stänga sidan: ingenting händer.',
  confirmButton: 'Bekräfta min e-postadress',
  badLinkTitle: 'Ogiltig länk',
  badLinkHeading: 'Länken är inte giltig',
  badLinkText:
    'Kontrollera att du öppnade hela länken från bekräftelsemejlet, eller anmäl dig igen för att få en ny.',
  tooManyHeading: 'För många försök',
  tooManyText:
    'Det har gjorts för många bekräftelseförsök från den här anslutningen. Vänta en minut och tryck sedan på knappen igen.',

  unsubscribeTitle: 'Sluta få mejl från {waitlist}',
  unsubscribedHeading: 'Du har avregistrerat dig',
  unsubscribedText:
    'Väntelistan för {waitlist} skickar inte längre några välkomst- eller inbjudningsmejl till dig. Du behåller din plats i kön och får fortfarande besked när du släpps in.',
  unsubscribeHeading: 'Avregistrera dig',
  unsubscribeText:
    'Tryck på knappen för att sluta få välkomst- och inbjudningsmejl från väntelistan för {waitlist}. Du behåller din plats i kön och får fortfarande besked när du släpps in.',
  unsubscribeButton: 'Avregistrera mig',

  confirmMailSubject: 'Bekräfta din e-postadress för {waitlist}',
  confirmMailIntro:
    'Någon, förhoppningsvis du, har anmält sig till väntelistan för {waitlist} med den här e-postadressen.',
  confirmMailOpen: 'Bekräfta genom att öppna den här länken och trycka på knappen:',
  confirmMailOr: 'Eller öppna den här länken:',
  confirmMailKeep:
    'Du behåller din plats i kön oavsett; när du bekräftar räknas du till den som bjöd in dig.',
  confirmMailIgnore:
    'Om det inte var du kan du bortse från det här mejlet: vi skickar inget mer om ingen anmäler sig igen.',

  stopEmails: 'Sluta få de här mejlen: {link}',

  welcomeSubject: 'Du står på väntelistan för {{waitlist_name}}',
  welcomeBody:
    'Tack för att du anmälde dig till {{waitlist_name}}. Du är nummer {{position}} i kön.\n\nVi hör av oss igen när det är din tur.',
  referralSubject: 'Någon har anmält sig till {{waitlist_name}} via dig',
  referralBody:
    'Tack för att du delar {{waitlist_name}}. Antal personer som hittills anmält sig via dig: {{referral_count}}. Du är nu nummer {{position}} i kön.',
  admittedSubject: 'Du är med: {{waitlist_name}}',
  admittedBody: 'Goda nyheter: {{waitlist_name}} har släppt in dig. Börja här: {{access_url}}',
};
