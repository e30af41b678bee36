import type { PageTexts } from './en.js';

// Formal "vy" (Slovak puts its past tense in the plural, so no gender shows); the name follows
// a noun and is never declined. `many` is for fractions only: "1,5 osoby".
export const sk: PageTexts = {
  statusTitle: 'Vaše miesto v čakacom zozname {waitlist}',
  checkInbox: 'Skontrolujte si schránku:',
  checkInboxText:
    'poslali sme vám odkaz na potvrdenie e-mailovej adresy. Svoje miesto si počas čakania ponecháte.',
  admittedHeading: 'Máte prístup',
  admittedText: '{waitlist} vám otvára prístup: čakanie sa skončilo. Čoskoro dostanete správu, ako začať.',
  positionOf: {
    one: 'celkovo {count} osoba v čakacom zozname',
    few: 'celkovo {count} osoby v čakacom zozname',
    many: 'celkovo {count} osoby v čakacom zozname',
    other: 'celkovo {count} osôb v čakacom zozname',
  },
  referralCode: 'Váš odporúčací kód',
  referrals: 'Odporúčania',
  referralsJoined: {
    one: 'S vaším kódom sa pridala {count} osoba',
    few: 'S vaším kódom sa pridali {count} osoby',
    many: 'S vaším kódom sa pridalo {count} osoby',
    other: 'S vaším kódom sa pridalo {count} osôb',
  },
  shareHeading: 'Zdieľajte svoj odkaz a posuňte sa dopredu',
  shareLabel: 'Váš odkaz na zdieľanie',
  copyLink: 'Kopírovať odkaz',
  linkCopied: 'Odkaz bol skopírovaný.',
  copyFailed: 'Kopírovanie zlyhalo: označte text a skopírujte ho.',
  notFoundTitle: 'Stránka sa nenašla',
  notFoundText:
    'Tento odkaz na stav nie je platný. Skontrolujte, či ste skopírovali celý odkaz z potvrdenia registrácie.',

  confirmTitle: 'Potvrďte e-mail pre {waitlist}',
  confirmedHeading: 'E-mail je potvrdený',
  confirmedText: 'Ďakujeme! Ste v čakacom zozname {waitlist} a vaša adresa je potvrdená.',
  seeYourPlace: 'Zobraziť miesto v poradí',
  confirmHeading: 'Potvrďte svoj e-mail',
  confirmText:
    'Stlačením tlačidla potvrdíte, že sa táto adresa prihlásila do čakacieho zoznamu {waitlist}. Ak ste to neboli vy, zatvorte túto stránku: nič sa nestane.',
  confirmButton: 'Potvrdiť e-mail',
  badLinkTitle: 'Neplatný odkaz',
  badLinkHeading: 'Tento odkaz nie je platný',
  badLinkText:
    'Skontrolujte, či ste otvorili celý odkaz z potvrdzovacieho e-mailu, alebo sa zaregistrujte znova a získajte nový.',
  tooManyHeading: 'Príliš veľa pokusov',
  tooManyText:
    'Z tohto pripojenia prišlo príliš veľa pokusov o potvrdenie. Počkajte minútu a stlačte tlačidlo znova.',

  unsubscribeTitle: 'Odhlásenie e-mailov: {waitlist}',
  unsubscribedHeading: 'E-maily sú odhlásené',
  unsubscribedText:
    'Čakací zoznam {waitlist} vám už nebude posielať uvítacie ani odporúčacie e-maily. Svoje miesto v poradí si ponecháte a o prijatí sa aj tak dozviete.',
  unsubscribeHeading: 'Odhlásiť e-maily',
  unsubscribeText:
    'Stlačením tlačidla zastavíte uvítacie a odporúčacie e-maily z čakacieho zoznamu {waitlist}. Svoje miesto v poradí si ponecháte a o prijatí sa aj tak dozviete.',
  unsubscribeButton: 'Odhlásiť',

  confirmMailSubject: 'Potvrďte e-mail pre {waitlist}',
  confirmMailIntro: 'Niekto, dúfame, že vy, prihlásil túto e-mailovú adresu do čakacieho zoznamu {waitlist}.',
  confirmMailOpen: 'Na potvrdenie otvorte tento odkaz a stlačte tlačidlo:',
  confirmMailOr: 'Alebo otvorte tento odkaz:',
  confirmMailKeep:
    'Svoje miesto v poradí si ponecháte v každom prípade; potvrdenie sa započíta tomu, kto vás odporučil.',
  confirmMailIgnore:
    'Ak ste to neboli vy, tento e-mail ignorujte: nič ďalšie už nepošleme, pokiaľ sa niekto neprihlási znova.',

  stopEmails: 'Odhlásiť tieto e-maily: {link}',

  welcomeSubject: 'Ste v čakacom zozname {{waitlist_name}}',
  welcomeBody:
    'Ďakujeme za registráciu do čakacieho zoznamu {{waitlist_name}}. Vaše poradie: {{position}}.\n\nOzveme sa znova, keď na vás príde rad.',
  referralSubject: 'Vďaka vám sa do čakacieho zoznamu {{waitlist_name}} niekto pridal',
  referralBody:
    'Ďakujeme, že zdieľate čakací zoznam {{waitlist_name}}. Počet ľudí, ktorí sa zatiaľ pridali vďaka vám: {{referral_count}}. Vaše poradie je teraz {{position}}.',
  admittedSubject: 'Máte prístup: {{waitlist_name}}',
  admittedBody: 'Dobrá správa: {{waitlist_name}} vám otvára prístup. Začnite tu: {{access_url}}',
};
