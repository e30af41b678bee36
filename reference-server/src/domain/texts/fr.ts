import type { PageTexts } from './en.js';

// "vous"; a no-break space (U+00A0) before each colon, as French typography wants. `many` is for
// round millions: "1 000 000 de personnes".
export const fr: PageTexts = {
  statusTitle: 'Votre place sur la liste de {waitlist}',
  checkInbox: 'Consultez votre boîte de réception\u00a0:',
  checkInboxText:
    'nous vous avons envoyé un lien pour confirmer votre adresse e-mail. Vous gardez votre place en attendant.',
  admittedHeading: 'C’est votre tour',
  admittedText:
    '{waitlist} vous a ouvert l’accès\u00a0: vous n’êtes plus en attente. Surveillez vos e-mails pour savoir comment commencer.',
  positionOf: {
    one: 'sur {count} personne dans la liste d’attente',
    many: 'sur {count} de personnes dans la liste d’attente',
    other: 'sur {count} personnes dans la liste d’attente',
  },
  referralCode: 'Votre code de parrainage',
  referrals: 'Parrainages',
  referralsJoined: {
    one: '{count} personne s’est inscrite avec votre code',
    many: '{count} de personnes se sont inscrites avec votre code',
    other: '{count} personnes se sont inscrites avec votre code',
  },
  shareHeading: 'Partagez votre lien pour avancer',
  shareLabel: 'Votre lien de partage',
  copyLink: 'Copier le lien',
  linkCopied: 'Lien copié.',
  copyFailed: 'La copie a échoué\u00a0: sélectionnez le texte et copiez-le.',
  notFoundTitle: 'Page introuvable',
  notFoundText:
    'Ce lien de suivi n’est pas valide. Vérifiez que vous avez copié le lien en entier depuis la confirmation de votre inscription.',

  confirmTitle: 'Confirmez votre e-mail pour {waitlist}',
  confirmedHeading: 'Votre e-mail est confirmé',
  confirmedText:
    'Merci\u00a0: vous êtes sur la liste d’attente de {waitlist} et votre adresse est confirmée.',
  seeYourPlace: 'Voir votre place dans la file',
  confirmHeading: 'Confirmez votre e-mail',
  confirmText:
    'Appuyez sur le bouton pour confirmer que cette adresse s’est inscrite sur la liste d’attente de {waitlist}. Si ce n’était pas vous, fermez cette page\u00a0: rien ne se passera.',
  confirmButton: 'Confirmer mon e-mail',
  badLinkTitle: 'Lien non valide',
  badLinkHeading: 'Ce lien n’est pas valide',
  badLinkText:
    'Vérifiez que vous avez ouvert le lien en entier depuis l’e-mail de confirmation, ou inscrivez-vous à nouveau pour en recevoir un autre.',
  tooManyHeading: 'Trop de tentatives',
  tooManyText:
    'Trop de confirmations ont été tentées depuis cette connexion. Patientez une minute, puis appuyez à nouveau sur le bouton.',

  unsubscribeTitle: 'Ne plus recevoir les e-mails de {waitlist}',
  unsubscribedHeading: 'Désinscription effectuée',
  unsubscribedText:
    'La liste d’attente de {waitlist} ne vous enverra plus d’e-mails de bienvenue ni de parrainage. Vous gardez votre place dans la file, et vous recevrez quand même un message quand votre tour viendra.',
  unsubscribeHeading: 'Se désinscrire des e-mails',
  unsubscribeText:
    'Appuyez sur le bouton pour ne plus recevoir les e-mails de bienvenue et de parrainage de la liste d’attente de {waitlist}. Vous gardez votre place dans la file, et vous recevrez quand même un message quand votre tour viendra.',
  unsubscribeButton: 'Me désinscrire',

  confirmMailSubject: 'Confirmez votre e-mail pour {waitlist}',
  confirmMailIntro:
    'Quelqu’un, vous-même nous l’espérons, s’est inscrit sur la liste d’attente de {waitlist} avec cette adresse e-mail.',
  confirmMailOpen: 'Pour la confirmer, ouvrez ce lien et appuyez sur le bouton\u00a0:',
  confirmMailOr: 'Ou ouvrez ce lien\u00a0:',
  confirmMailKeep:
    'Vous gardez votre place dans la file dans tous les cas. En confirmant, votre inscription compte pour la personne qui a partagé son lien avec vous.',
  confirmMailIgnore:
    'Si ce n’était pas vous, ignorez cet e-mail\u00a0: nous n’enverrons plus rien, sauf si quelqu’un s’inscrit à nouveau.',

  stopEmails: 'Pour ne plus recevoir ces e-mails\u00a0: {link}',

  welcomeSubject: 'Vous êtes sur la liste d’attente de {{waitlist_name}}',
  welcomeBody:
    'Merci de votre inscription à {{waitlist_name}}. Vous êtes numéro {{position}} dans la file.\n\nNous vous écrirons de nouveau quand ce sera votre tour.',
  referralSubject: 'Quelqu’un a rejoint {{waitlist_name}} grâce à vous',
  referralBody:
    'Merci de faire connaître {{waitlist_name}}. Personnes inscrites grâce à vous jusqu’ici\u00a0: {{referral_count}}. Vous êtes maintenant numéro {{position}} dans la file.',
  admittedSubject: 'C’est votre tour\u00a0: {{waitlist_name}}',
  admittedBody:
    'Bonne nouvelle\u00a0: {{waitlist_name}} vous a ouvert l’accès. Pour commencer\u00a0: {{access_url}}',
};
