import type { PageTexts } from './en.js';

// "tu", as Romanian start-ups write; `other` (20 and up) takes "de": "20 de persoane".
export const ro: PageTexts = {
  statusTitle: 'Locul tău pe lista de așteptare {waitlist}',
  checkInbox: 'Verifică-ți căsuța de e-mail:',
  checkInboxText:
    'ți-am trimis un link pentru a-ți confirma adresa de e-mail. Îți păstrezi locul cât timp aștepți.',
  admittedHeading: 'Ai acces',
  admittedText: '{waitlist} ți-a dat acces: nu mai aștepți. Urmărește mesajul despre cum să începi.',
  positionOf: {
    one: 'din {count} persoană de pe lista de așteptare',
    few: 'din {count} persoane de pe lista de așteptare',
    other: 'din {count} de persoane de pe lista de așteptare',
  },
  referralCode: 'Codul tău de invitație',
  referrals: 'Invitații',
  referralsJoined: {
    one: '{count} persoană s-a înscris cu codul tău',
    few: '{count} persoane s-au înscris cu codul tău',
    other: '{count} de persoane s-au înscris cu codul tău',
  },
  shareHeading: 'Distribuie linkul ca să urci în listă',
  shareLabel: 'Linkul tău de distribuit',
  copyLink: 'Copiază linkul',
  linkCopied: 'Linkul a fost copiat.',
  copyFailed: 'Copierea nu a reușit: selectează textul și copiază-l.',
  notFoundTitle: 'Pagina nu a fost găsită',
  notFoundText:
    'Acest link de status nu este valid. Verifică dacă ai copiat tot linkul din confirmarea înscrierii.',

  confirmTitle: 'Confirmă-ți adresa de e-mail pentru {waitlist}',
  confirmedHeading: 'Adresa ta de e-mail este confirmată',
  confirmedText: 'Mulțumim! Ești pe lista de așteptare {waitlist}, iar adresa ta este confirmată.',
  seeYourPlace: 'Vezi-ți locul în listă',
  confirmHeading: 'Confirmă-ți adresa de e-mail',
  confirmText:
    'Apasă butonul pentru a confirma că această adresă s-a înscris pe lista de așteptare {waitlist}. Dacă nu ai fost tu, închide pagina: nu se întâmplă nimic.',
  confirmButton: 'Confirm adresa de e-mail',
  badLinkTitle: 'Link nevalid',
  badLinkHeading: 'Acest link nu este valid',
  badLinkText:
    'Verifică dacă ai deschis tot linkul din e-mailul de confirmare sau înscrie-te din nou ca să primești unul nou.',
  tooManyHeading: 'Prea multe încercări',
  tooManyText:
    'De la această conexiune s-a încercat confirmarea de prea multe ori. Așteaptă un minut, apoi apasă din nou butonul.',

  unsubscribeTitle: 'Dezabonare de la e-mailurile {waitlist}',
  unsubscribedHeading: 'Te-ai dezabonat',
  unsubscribedText:
    'Lista de așteptare {waitlist} nu îți mai trimite e-mailuri de bun venit sau despre invitații. Îți păstrezi locul în listă și vei afla în continuare când primești acces.',
  unsubscribeHeading: 'Dezabonare',
  unsubscribeText:
    'Apasă butonul ca să nu mai primești e-mailurile de bun venit și despre invitații ale listei de așteptare {waitlist}. Îți păstrezi locul în listă și vei afla în continuare când primești acces.',
  unsubscribeButton: 'Dezabonează-mă',

  confirmMailSubject: 'Confirmă-ți adresa de e-mail pentru {waitlist}',
  confirmMailIntro:
    'Cineva, sperăm că tu, s-a înscris pe lista de așteptare {waitlist} cu această adresă de e-mail.',
  confirmMailOpen: 'Ca să o confirmi, deschide acest link și apasă butonul:',
  confirmMailOr: 'Sau deschide acest link:',
  confirmMailKeep:
    'Îți păstrezi locul în listă oricum; confirmarea contează pentru persoana care te-a invitat.',
  confirmMailIgnore:
    'Dacă nu ai fost tu, ignoră acest e-mail: nu mai trimitem nimic decât dacă cineva se înscrie din nou.',

  stopEmails: 'Ca să nu mai primești aceste e-mailuri: {link}',

  welcomeSubject: 'Ești pe lista de așteptare {{waitlist_name}}',
  welcomeBody:
    'Mulțumim pentru înscrierea la {{waitlist_name}}. Ești numărul {{position}} în listă.\n\nÎți vom scrie din nou când îți vine rândul.',
  referralSubject: 'Cineva s-a înscris la {{waitlist_name}} prin tine',
  referralBody:
    'Mulțumim că distribui {{waitlist_name}}. Persoane înscrise prin tine până acum: {{referral_count}}. Acum ești numărul {{position}} în listă.',
  admittedSubject: 'Ai acces: {{waitlist_name}}',
  admittedBody: 'Vești bune: {{waitlist_name}} ți-a dat acces. Începe aici: {{access_url}}',
};
