import type { PageTexts } from './en.js';

// A name takes no case ending (how it inflects depends on how it is pronounced): it follows
// "jonotuslista", which takes the case, as Finnish interfaces write foreign names.
export const fi: PageTexts = {
  statusTitle: 'Paikkasi jonotuslistalla {waitlist}',
  checkInbox: 'Tarkista sähköpostisi:',
  checkInboxText:
    'lähetimme sinulle linkin, jolla vahvistat sähköpostiosoitteesi. Pidät paikkasi odottaessasi.',
  admittedHeading: 'Pääsit mukaan',
  admittedText:
    '{waitlist} on päästänyt sinut mukaan: odotus on ohi. Pidä silmällä viestiä, jossa kerrotaan, miten pääset alkuun.',
  positionOf: { one: 'jonossa yhteensä {count} henkilö', other: 'jonossa yhteensä {count} henkilöä' },
  referralCode: 'Kutsukoodisi',
  referrals: 'Kutsut',
  referralsJoined: {
    one: '{count} henkilö on liittynyt koodillasi',
    other: '{count} henkilöä on liittynyt koodillasi',
  },
  shareHeading: 'Jaa linkkisi ja nouse jonossa',
  shareLabel: 'Jakolinkkisi',
  copyLink: 'Kopioi linkki',
  linkCopied: 'Linkki kopioitu.',
  copyFailed: 'Kopiointi epäonnistui: valitse teksti ja kopioi se itse.',
  notFoundTitle: 'Sivua ei löytynyt',
  notFoundText:
    'Tämä tilalinkki ei ole voimassa. Tarkista, että kopioit koko linkin ilmoittautumisesi vahvistuksesta.',

  confirmTitle: 'Vahvista sähköpostisi jonotuslistalle {waitlist}',
  confirmedHeading: 'Sähköpostisi on vahvistettu',
  confirmedText: 'Kiitos! Olet jonotuslistalla {waitlist}, ja osoitteesi on vahvistettu.',
  seeYourPlace: 'Katso paikkasi jonossa',
  confirmHeading: 'Vahvista sähköpostisi',
  confirmText:
    'Vahvista painikkeella, että tämä osoite ilmoittautui jonotuslistalle {waitlist}. Jos se et ollut sinä, sulje tämä sivu: mitään ei tapahdu.',
  confirmButton: 'Vahvista sähköpostini',
  badLinkTitle: 'Virheellinen linkki',
  badLinkHeading: 'Tämä linkki ei ole voimassa',
  badLinkText:
    'Tarkista, että avasit koko linkin vahvistusviestistä, tai ilmoittaudu uudelleen saadaksesi uuden.',
  tooManyHeading: 'Liian monta yritystä',
  tooManyText:
    'Tästä yhteydestä on yritetty vahvistaa liian monta kertaa. Odota minuutti ja paina sitten painiketta uudelleen.',

  unsubscribeTitle: 'Lopeta viestit jonotuslistalta {waitlist}',
  unsubscribedHeading: 'Et saa enää näitä viestejä',
  unsubscribedText:
    'Jonotuslista {waitlist} ei enää lähetä sinulle tervetulo- tai kutsuviestejä. Pidät paikkasi jonossa ja saat silti tiedon, kun pääset mukaan.',
  unsubscribeHeading: 'Lopeta viestit',
  unsubscribeText:
    'Paina painiketta, niin et enää saa jonotuslistan {waitlist} tervetulo- ja kutsuviestejä. Pidät paikkasi jonossa ja saat silti tiedon, kun pääset mukaan.',
  unsubscribeButton: 'Lopeta viestit',

  confirmMailSubject: 'Vahvista sähköpostisi jonotuslistalle {waitlist}',
  confirmMailIntro:
    'Joku, toivottavasti sinä, ilmoittautui tällä sähköpostiosoitteella jonotuslistalle {waitlist}.',
  confirmMailOpen: 'Vahvista avaamalla tämä linkki ja painamalla painiketta:',
  confirmMailOr: 'Tai avaa tämä linkki:',
  confirmMailKeep:
    'Pidät paikkasi jonossa joka tapauksessa; vahvistus lasketaan sen hyväksi, joka kutsui sinut.',
  confirmMailIgnore:
    'Jos se et ollut sinä, voit jättää tämän viestin huomiotta: emme lähetä mitään muuta, ellei joku ilmoittaudu uudelleen.',

  stopEmails: 'Lopeta nämä viestit: {link}',

  welcomeSubject: 'Olet jonotuslistalla {{waitlist_name}}',
  welcomeBody:
    'Kiitos ilmoittautumisesta jonotuslistalle {{waitlist_name}}. Olet jonossa numero {{position}}.\n\nKirjoitamme sinulle uudelleen, kun on sinun vuorosi.',
  referralSubject: 'Joku liittyi kauttasi jonotuslistalle {{waitlist_name}}',
  referralBody:
    'Kiitos, että jaoit jonotuslistaa {{waitlist_name}}. Kauttasi tähän mennessä liittyneitä: {{referral_count}}. Olet nyt jonossa numero {{position}}.',
  admittedSubject: 'Pääsit mukaan: {{waitlist_name}}',
  admittedBody: 'Hyviä uutisia: {{waitlist_name}} on päästänyt sinut mukaan. Aloita tästä: {{access_url}}',
};
