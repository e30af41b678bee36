import type { PageTexts } from './en.js';

// "tú", as start-ups in Spain and Latin America write; words both understand ("correo", "enlace").
// `many` is for round millions: "1.000.000 de personas".
export const es: PageTexts = {
  statusTitle: 'Tu lugar en {waitlist}',
  checkInbox: 'Revisa tu bandeja de entrada:',
  checkInboxText:
    'te enviamos un enlace para confirmar tu dirección de correo. Conservas tu lugar mientras esperas.',
  admittedHeading: 'Ya tienes acceso',
  admittedText:
    '{waitlist} te ha dado acceso: ya no estás en espera. Pronto recibirás su mensaje con los pasos para empezar.',
  positionOf: {
    one: 'de {count} persona en la lista de espera',
    many: 'de {count} de personas en la lista de espera',
    other: 'de {count} personas en la lista de espera',
  },
  referralCode: 'Tu código de invitación',
  referrals: 'Invitaciones',
  referralsJoined: {
    one: '{count} persona se ha unido con tu código',
    many: '{count} de personas se han unido con tu código',
    other: '{count} personas se han unido con tu código',
  },
  shareHeading: 'Comparte tu enlace para avanzar',
  shareLabel: 'Tu enlace para compartir',
  copyLink: 'Copiar enlace',
  linkCopied: 'Enlace copiado.',
  copyFailed: 'No se pudo copiar: selecciona el texto y cópialo.',
  notFoundTitle: 'Página no encontrada',
  notFoundText:
    'Este enlace de estado no es válido. Comprueba que copiaste el enlace completo de la confirmación de tu registro.',

  confirmTitle: 'Confirma tu correo para {waitlist}',
  confirmedHeading: 'Tu correo está confirmado',
  confirmedText: 'Gracias: estás en la lista de espera de {waitlist} y tu dirección está confirmada.',
  seeYourPlace: 'Ver tu lugar en la fila',
  confirmHeading: 'Confirma tu correo',
  confirmText:
    'Pulsa el botón para confirmar que esta dirección se registró en la lista de espera de {waitlist}. Si no fuiste tú, cierra esta página: no pasará nada.',
  confirmButton: 'Confirmar mi correo',
  badLinkTitle: 'Enlace no válido',
  badLinkHeading: 'Este enlace no es válido',
  badLinkText:
    'Comprueba que abriste el enlace completo del correo de confirmación, o regístrate de nuevo para recibir otro.',
  tooManyHeading: 'Demasiados intentos',
  tooManyText:
    'Se ha intentado confirmar demasiadas veces desde esta conexión. Espera un minuto y vuelve a pulsar el botón.',

  unsubscribeTitle: 'Dejar de recibir correos de {waitlist}',
  unsubscribedHeading: 'Te has dado de baja',
  unsubscribedText:
    'La lista de espera de {waitlist} ya no te enviará correos de bienvenida ni de invitaciones. Conservas tu lugar en la fila y te avisaremos igualmente cuando tengas acceso.',
  unsubscribeHeading: 'Darse de baja de los correos',
  unsubscribeText:
    'Pulsa el botón para dejar de recibir los correos de bienvenida y de invitaciones de la lista de espera de {waitlist}. Conservas tu lugar en la fila y te avisaremos igualmente cuando tengas acceso.',
  unsubscribeButton: 'Darme de baja',

  confirmMailSubject: 'Confirma tu correo para {waitlist}',
  confirmMailIntro:
    'Alguien, esperamos que tú, se registró en la lista de espera de {waitlist} con esta dirección de correo.',
  confirmMailOpen: 'Para confirmarla, abre este enlace y pulsa el botón:',
  confirmMailOr: 'O abre este enlace:',
  confirmMailKeep:
    'Conservas tu lugar en la fila en cualquier caso; al confirmar, cuentas para la persona que te invitó.',
  confirmMailIgnore:
    'Si no fuiste tú, ignora este correo: no enviaremos nada más a menos que alguien vuelva a registrarse.',

  stopEmails: 'Para dejar de recibir estos correos: {link}',

  welcomeSubject: 'Estás en la lista de espera de {{waitlist_name}}',
  welcomeBody:
    'Gracias por registrarte en {{waitlist_name}}. Tienes el número {{position}} en la fila.\n\nTe volveremos a escribir cuando sea tu turno.',
  referralSubject: 'Alguien se unió a {{waitlist_name}} gracias a ti',
  referralBody:
    'Gracias por compartir {{waitlist_name}}. Personas que se han unido gracias a ti hasta ahora: {{referral_count}}. Ahora tienes el número {{position}} en la fila.',
  admittedSubject: 'Ya tienes acceso: {{waitlist_name}}',
  admittedBody: 'Buenas noticias: {{waitlist_name}} te ha dado acceso. Empieza aquí: {{access_url}}',
};
