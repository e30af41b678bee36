import type { PageTexts } from './en.js';

// "tu", as Italian start-ups write; `many` is for round millions: "1.000.000 di persone".
export const it: PageTexts = {
  statusTitle: 'Il tuo posto in lista per {waitlist}',
  checkInbox: 'Controlla la tua casella di posta:',
  checkInboxText:
    'ti abbiamo inviato un link per confermare il tuo indirizzo email. Nel frattempo mantieni il tuo posto.',
  admittedHeading: 'È il tuo turno',
  admittedText:
    '{waitlist} ti ha dato accesso: l’attesa è finita. Tieni d’occhio la posta: riceverai un messaggio su come iniziare.',
  positionOf: {
    one: 'su {count} persona in lista d’attesa',
    many: 'su {count} di persone in lista d’attesa',
    other: 'su {count} persone in lista d’attesa',
  },
  referralCode: 'Il tuo codice invito',
  referrals: 'Inviti',
  referralsJoined: {
    one: '{count} persona si è iscritta con il tuo codice',
    many: '{count} di persone si sono iscritte con il tuo codice',
    other: '{count} persone si sono iscritte con il tuo codice',
  },
  shareHeading: 'Condividi il tuo link per salire in lista',
  shareLabel: 'Il tuo link da condividere',
  copyLink: 'Copia link',
  linkCopied: 'Link copiato.',
  copyFailed: 'Copia non riuscita: seleziona il testo e copialo.',
  notFoundTitle: 'Pagina non trovata',
  notFoundText:
    'Questo link di stato non è valido. Controlla di aver copiato il link completo dalla conferma di iscrizione.',

  confirmTitle: 'Conferma la tua email per {waitlist}',
  confirmedHeading: 'La tua email è confermata',
  confirmedText: 'Grazie: sei nella lista d’attesa di {waitlist} e il tuo indirizzo è confermato.',
  seeYourPlace: 'Vedi il tuo posto in lista',
  confirmHeading: 'Conferma la tua email',
  confirmText:
    'Premi il pulsante per confermare che questo indirizzo si è iscritto alla lista d’attesa di {waitlist}. Se non hai fatto tu l’iscrizione, chiudi questa pagina: non succederà nulla.',
  confirmButton: 'Conferma la mia email',
  badLinkTitle: 'Link non valido',
  badLinkHeading: 'Questo link non è valido',
  badLinkText:
    'Controlla di aver aperto il link completo dall’email di conferma, oppure iscriviti di nuovo per riceverne uno nuovo.',
  tooManyHeading: 'Troppi tentativi',
  tooManyText:
    'Da questa connessione sono arrivati troppi tentativi di conferma. Aspetta un minuto, poi premi di nuovo il pulsante.',

  unsubscribeTitle: 'Non ricevere più email da {waitlist}',
  unsubscribedHeading: 'Non riceverai più queste email',
  unsubscribedText:
    'La lista d’attesa di {waitlist} non ti invierà più email di benvenuto o sugli inviti. Mantieni il tuo posto in lista e riceverai comunque un avviso quando sarà il tuo turno.',
  unsubscribeHeading: 'Disiscriviti dalle email',
  unsubscribeText:
    'Premi il pulsante per non ricevere più le email di benvenuto e sugli inviti della lista d’attesa di {waitlist}. Mantieni il tuo posto in lista e riceverai comunque un avviso quando sarà il tuo turno.',
  unsubscribeButton: 'Disiscrivimi',

  confirmMailSubject: 'Conferma la tua email per {waitlist}',
  confirmMailIntro:
    'Qualcuno, speriamo tu, si è iscritto alla lista d’attesa di {waitlist} con questo indirizzo email.',
  confirmMailOpen: 'Per confermarlo, apri questo link e premi il pulsante:',
  confirmMailOr: 'Oppure apri questo link:',
  confirmMailKeep:
    'Mantieni il tuo posto in lista in ogni caso; confermando, la tua iscrizione conta per chi ti ha mandato il link.',
  confirmMailIgnore:
    'Se non hai fatto tu l’iscrizione, ignora questa email: non invieremo altro, a meno che qualcuno non si iscriva di nuovo.',

  stopEmails: 'Per non ricevere più queste email: {link}',

  welcomeSubject: 'Sei nella lista d’attesa di {{waitlist_name}}',
  welcomeBody:
    'Grazie per l’iscrizione a {{waitlist_name}}. Sei il numero {{position}} in lista.\n\nTi scriveremo di nuovo quando sarà il tuo turno.',
  referralSubject: 'Qualcuno si è iscritto a {{waitlist_name}} grazie a te',
  referralBody:
    'Grazie per aver condiviso {{waitlist_name}}. Persone iscritte finora grazie a te: {{referral_count}}. Ora sei il numero {{position}} in lista.',
  admittedSubject: 'È il tuo turno: {{waitlist_name}}',
  admittedBody: 'Buone notizie: {{waitlist_name}} ti ha dato accesso. Inizia da qui: {{access_url}}',
};
