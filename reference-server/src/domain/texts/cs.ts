import type { PageTexts } from './en.js';

// Formal "vy" without past tenses of the reader ("byl jste" / "byla jste" would say a gender);
// counts stand without "z"/"ze", whose choice depends on how the number is pronounced. `many` is
// for fractions only: "1,5 osoby".
export const cs: PageTexts = {
  statusTitle: 'Vaše místo na čekací listině {waitlist}',
  checkInbox: 'Zkontrolujte svou schránku:',
  checkInboxText:
    'poslali jsme vám odkaz k potvrzení e-mailové adresy. Své místo si během čekání ponecháváte.',
  admittedHeading: 'Máte přístup',
  admittedText: '{waitlist} vám otevírá přístup: čekání skončilo. Brzy dostanete zprávu, jak začít.',
  positionOf: {
    one: 'celkem {count} osoba na čekací listině',
    few: 'celkem {count} osoby na čekací listině',
    many: 'celkem {count} osoby na čekací listině',
    other: 'celkem {count} osob na čekací listině',
  },
  referralCode: 'Váš doporučovací kód',
  referrals: 'Doporučení',
  referralsJoined: {
    one: 'S vaším kódem se přidala {count} osoba',
    few: 'S vaším kódem se přidaly {count} osoby',
    many: 'S vaším kódem se přidalo {count} osoby',
    other: 'S vaším kódem se přidalo {count} osob',
  },
  shareHeading: 'Sdílejte svůj odkaz a posuňte se dopředu',
  shareLabel: 'Váš odkaz ke sdílení',
  copyLink: 'Kopírovat odkaz',
  linkCopied: 'Odkaz zkopírován.',
  copyFailed: 'Kopírování se nezdařilo: označte text a zkopírujte ho.',
  notFoundTitle: 'Stránka nenalezena',
  notFoundText:
    'Tento odkaz na stav není platný. Zkontrolujte, zda je zkopírován celý odkaz z potvrzení registrace.',

  confirmTitle: 'Potvrďte e-mail pro {waitlist}',
  confirmedHeading: 'E-mail je potvrzen',
  confirmedText: 'Děkujeme! Jste na čekací listině {waitlist} a vaše adresa je potvrzena.',
  seeYourPlace: 'Zobrazit místo ve frontě',
  confirmHeading: 'Potvrďte svůj e-mail',
  confirmText:
    'Stisknutím tlačítka potvrdíte, že se tato adresa přihlásila na čekací listinu {waitlist}. Pokud jde o omyl, stačí tuto stránku zavřít: nic se nestane.',
  confirmButton: 'Potvrdit e-mail',
  badLinkTitle: 'Neplatný odkaz',
  badLinkHeading: 'Tento odkaz není platný',
  badLinkText:
    'Zkontrolujte, zda otevíráte celý odkaz z potvrzovacího e-mailu, nebo se zaregistrujte znovu a získejte nový.',
  tooManyHeading: 'Příliš mnoho pokusů',
  tooManyText:
    'Z tohoto připojení přišlo příliš mnoho pokusů o potvrzení. Počkejte minutu a stiskněte tlačítko znovu.',

  unsubscribeTitle: 'Odhlášení e-mailů: {waitlist}',
  unsubscribedHeading: 'E-maily jsou odhlášeny',
  unsubscribedText:
    'Čekací listina {waitlist} vám už nebude posílat uvítací ani doporučovací e-maily. Své místo ve frontě si ponecháváte a o přijetí se i tak dozvíte.',
  unsubscribeHeading: 'Odhlásit e-maily',
  unsubscribeText:
    'Stisknutím tlačítka zastavíte uvítací a doporučovací e-maily z čekací listiny {waitlist}. Své místo ve frontě si ponecháváte a o přijetí se i tak dozvíte.',
  unsubscribeButton: 'Odhlásit',

  confirmMailSubject: 'Potvrďte e-mail pro {waitlist}',
  confirmMailIntro: 'Tato e-mailová adresa byla přihlášena na čekací listinu {waitlist} – doufáme, že vámi.',
  confirmMailOpen: 'Pro potvrzení otevřete tento odkaz a stiskněte tlačítko:',
  confirmMailOr: 'Nebo otevřete tento odkaz:',
  confirmMailKeep:
    'Své místo ve frontě si ponecháte tak jako tak; potvrzení se započítá tomu, kdo vás doporučil.',
  confirmMailIgnore:
    'Pokud jde o omyl, tento e-mail ignorujte: nic dalšího už nepošleme, pokud se někdo nepřihlásí znovu.',

  stopEmails: 'Odhlásit tyto e-maily: {link}',

  welcomeSubject: 'Jste na čekací listině {{waitlist_name}}',
  welcomeBody:
    'Děkujeme za registraci na čekací listinu {{waitlist_name}}. Vaše pořadí ve frontě: {{position}}.\n\nOzveme se znovu, až na vás přijde řada.',
  referralSubject: 'Díky vám se na čekací listinu {{waitlist_name}} někdo přidal',
  referralBody:
    'Děkujeme, že sdílíte čekací listinu {{waitlist_name}}. Počet lidí, kteří se zatím přidali díky vám: {{referral_count}}. Vaše pořadí ve frontě je nyní {{position}}.',
  admittedSubject: 'Máte přístup: {{waitlist_name}}',
  admittedBody: 'Dobrá zpráva: {{waitlist_name}} vám otevírá přístup. Začněte zde: {{access_url}}',
};
