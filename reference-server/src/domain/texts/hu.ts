import type { PageTexts } from './en.js';

// Tegezés, as Hungarian start-ups write. The name never follows "a"/"az" (which depends on its
// first sound) and never takes a suffix: it stands after a colon.
export const hu: PageTexts = {
  statusTitle: 'A helyed a várólistán: {waitlist}',
  checkInbox: 'Nézd meg a postafiókodat:',
  checkInboxText:
    'küldtünk egy linket, amellyel megerősítheted az e-mail-címedet. Amíg vársz, megtartod a helyedet.',
  admittedHeading: 'Bejutottál',
  admittedText:
    'Sorra kerültél, már nem kell várnod: {waitlist}. Hamarosan üzenetet kapsz arról, hogyan kezdj hozzá.',
  positionOf: { one: 'összesen {count} fő a várólistán', other: 'összesen {count} fő a várólistán' },
  referralCode: 'A meghívókódod',
  referrals: 'Meghívások',
  referralsJoined: {
    one: '{count} ember csatlakozott a kódoddal',
    other: '{count} ember csatlakozott a kódoddal',
  },
  shareHeading: 'Oszd meg a linkedet, és lépj előrébb',
  shareLabel: 'A megosztható linked',
  copyLink: 'Link másolása',
  linkCopied: 'A link a vágólapon van.',
  copyFailed: 'A másolás nem sikerült: jelöld ki a szöveget, és másold ki.',
  notFoundTitle: 'Az oldal nem található',
  notFoundText:
    'Ez az állapotlink nem érvényes. Ellenőrizd, hogy a teljes linket másoltad-e ki a feliratkozás visszaigazolásából.',

  confirmTitle: 'Erősítsd meg az e-mail-címedet: {waitlist}',
  confirmedHeading: 'Az e-mail-címed megerősítve',
  confirmedText: 'Köszönjük! A címedet megerősítettük, így rajta vagy ezen a várólistán: {waitlist}.',
  seeYourPlace: 'Nézd meg a helyed a sorban',
  confirmHeading: 'Erősítsd meg az e-mail-címedet',
  confirmText:
    'A gombbal megerősíted, hogy ez a cím feliratkozott erre a várólistára: {waitlist}. Ha nem te voltál, csak zárd be ezt az oldalt, és nem történik semmi.',
  confirmButton: 'Megerősítem az e-mail-címemet',
  badLinkTitle: 'Érvénytelen link',
  badLinkHeading: 'Ez a link nem érvényes',
  badLinkText:
    'Ellenőrizd, hogy a teljes linket nyitottad-e meg a megerősítő e-mailből, vagy iratkozz fel újra, hogy újat kapj.',
  tooManyHeading: 'Túl sok próbálkozás',
  tooManyText:
    'Erről a kapcsolatról túl sokszor próbáltak megerősítést küldeni. Várj egy percet, aztán nyomd meg újra a gombot.',

  unsubscribeTitle: 'Leiratkozás az e-mailekről: {waitlist}',
  unsubscribedHeading: 'Leiratkoztál',
  unsubscribedText:
    'Nem kapsz több üdvözlő vagy meghívásos e-mailt erről a várólistáról: {waitlist}. A helyed a sorban megmarad, és arról is értesítünk, amikor bejutsz.',
  unsubscribeHeading: 'Leiratkozás',
  unsubscribeText:
    'A gombbal leiratkozol az üdvözlő és meghívásos e-mailekről erről a várólistáról: {waitlist}. A helyed a sorban megmarad, és arról is értesítünk, amikor bejutsz.',
  unsubscribeButton: 'Leiratkozom',

  confirmMailSubject: 'Erősítsd meg az e-mail-címedet: {waitlist}',
  confirmMailIntro:
    'Valaki – reméljük, te – ezzel az e-mail-címmel feliratkozott erre a várólistára: {waitlist}.',
  confirmMailOpen: 'A megerősítéshez nyisd meg ezt a linket, és nyomd meg a gombot:',
  confirmMailOr: 'Vagy nyisd meg ezt a linket:',
  confirmMailKeep: 'A helyed a sorban mindenképp megmarad; a megerősítéssel annak számítasz, aki meghívott.',
  confirmMailIgnore:
    'Ha nem te voltál, hagyd figyelmen kívül ezt az e-mailt: nem küldünk többet, hacsak valaki újra fel nem iratkozik.',

  stopEmails: 'Leiratkozás ezekről az e-mailekről: {link}',

  welcomeSubject: 'Felkerültél a várólistára: {{waitlist_name}}',
  welcomeBody:
    'Köszönjük, hogy feliratkoztál erre a várólistára: {{waitlist_name}}. A helyed a sorban: {{position}}.\n\nÍrunk újra, amikor sorra kerülsz.',
  referralSubject: 'Valaki csatlakozott rajtad keresztül: {{waitlist_name}}',
  referralBody:
    'Köszönjük, hogy megosztottad: {{waitlist_name}}. Rajtad keresztül eddig csatlakozott: {{referral_count}} fő. A helyed a sorban most: {{position}}.',
  admittedSubject: 'Bejutottál: {{waitlist_name}}',
  admittedBody: 'Jó hír: sorra kerültél, már használhatod: {{waitlist_name}}. Itt kezdheted: {{access_url}}',
};
