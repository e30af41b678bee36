import type { PageTexts } from './en.js';

// "tu"; `many` is for round millions: "1.000.000 de persones".
export const ca: PageTexts = {
  statusTitle: 'El teu lloc a {waitlist}',
  checkInbox: 'Revisa la safata d’entrada:',
  checkInboxText:
    't’hem enviat un enllaç per confirmar la teva adreça electrònica. Mantens el lloc mentre esperes.',
  admittedHeading: 'Ja tens accés',
  admittedText:
    '{waitlist} t’ha donat accés: ja no estàs en espera. Aviat rebràs el seu missatge amb els passos per començar.',
  positionOf: {
    one: 'de {count} persona a la llista d’espera',
    many: 'de {count} de persones a la llista d’espera',
    other: 'de {count} persones a la llista d’espera',
  },
  referralCode: 'El teu codi d’invitació',
  referrals: 'Invitacions',
  referralsJoined: {
    one: '{count} persona s’ha unit amb el teu codi',
    many: '{count} de persones s’han unit amb el teu codi',
    other: '{count} persones s’han unit amb el teu codi',
  },
  shareHeading: 'Comparteix el teu enllaç per avançar',
  shareLabel: 'El teu enllaç per compartir',
  copyLink: 'Copia l’enllaç',
  linkCopied: 'Enllaç copiat.',
  copyFailed: 'No s’ha pogut copiar: selecciona el text i copia’l.',
  notFoundTitle: 'No s’ha trobat la pàgina',
  notFoundText:
    'Aquest enllaç d’estat no és vàlid. Comprova que has copiat l’enllaç sencer de la confirmació de la inscripció.',

  confirmTitle: 'Confirma el teu correu per a {waitlist}',
  confirmedHeading: 'El teu correu està confirmat',
  confirmedText: 'Gràcies: ets a la llista d’espera de {waitlist} i la teva adreça està confirmada.',
  seeYourPlace: 'Mira el teu lloc a la cua',
  confirmHeading: 'Confirma el teu correu',
  confirmText:
    'Prem el botó per confirmar que aquesta adreça s’ha inscrit a la llista d’espera de {waitlist}. Si no has estat tu, tanca aquesta pàgina: no passarà res.',
  confirmButton: 'Confirma el meu correu',
  badLinkTitle: 'Enllaç no vàlid',
  badLinkHeading: 'Aquest enllaç no és vàlid',
  badLinkText:
    'Comprova que has obert l’enllaç sencer del correu de confirmació, o torna’t a inscriure per rebre’n un de nou.',
  tooManyHeading: 'Massa intents',
  tooManyText:
    'S’ha intentat confirmar massa vegades des d’aquesta connexió. Espera un minut i torna a prémer el botó.',

  unsubscribeTitle: 'Deixa de rebre correus de {waitlist}',
  unsubscribedHeading: 'Ja no rebràs aquests correus',
  unsubscribedText:
    'La llista d’espera de {waitlist} ja no t’enviarà correus de benvinguda ni d’invitacions. Mantens el teu lloc a la cua i igualment t’avisarem quan tinguis accés.',
  unsubscribeHeading: 'Baixa dels correus',
  unsubscribeText:
    'Prem el botó per deixar de rebre els correus de benvinguda i d’invitacions de la llista d’espera de {waitlist}. Mantens el teu lloc a la cua i igualment t’avisarem quan tinguis accés.',
  unsubscribeButton: 'Dona’m de baixa',

  confirmMailSubject: 'Confirma el teu correu per a {waitlist}',
  confirmMailIntro:
    'Algú, esperem que tu, s’ha inscrit a la llista d’espera de {waitlist} amb aquesta adreça electrònica.',
  confirmMailOpen: 'Per confirmar-la, obre aquest enllaç i prem el botó:',
  confirmMailOr: 'O obre aquest enllaç:',
  confirmMailKeep:
    'Mantens el teu lloc a la cua en qualsevol cas; si confirmes, comptes per a la persona que t’ha convidat.',
  confirmMailIgnore:
    'Si no has estat tu, ignora aquest correu: no t’enviarem res més tret que algú s’hi torni a inscriure.',

  stopEmails: 'Per deixar de rebre aquests correus: {link}',

  welcomeSubject: 'Ets a la llista d’espera de {{waitlist_name}}',
  welcomeBody:
    'Gràcies per inscriure’t a {{waitlist_name}}. Ets el número {{position}} de la cua.\n\nT’escriurem de nou quan sigui el teu torn.',
  referralSubject: 'Algú s’ha unit a {{waitlist_name}} gràcies a tu',
  referralBody:
    'Gràcies per compartir {{waitlist_name}}. Persones que s’han unit gràcies a tu fins ara: {{referral_count}}. Ara ets el número {{position}} de la cua.',
  admittedSubject: 'Ja tens accés: {{waitlist_name}}',
  admittedBody: 'Bones notícies: {{waitlist_name}} t’ha donat accés. Comença aquí: {{access_url}}',
};
