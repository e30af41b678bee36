import type { PageTexts } from './en.js';

// Brazilian Portuguese with "você": pt-BR and pt-PT both come here, and most readers are in Brazil.
// `many` is for round millions: "1.000.000 de pessoas".
export const pt: PageTexts = {
  statusTitle: 'Seu lugar na lista de {waitlist}',
  checkInbox: 'Confira sua caixa de entrada:',
  checkInboxText:
    'enviamos um link para confirmar seu endereço de e-mail. Você mantém seu lugar enquanto espera.',
  admittedHeading: 'Sua vez chegou',
  admittedText:
    '{waitlist} liberou seu acesso: a espera acabou. Fique de olho na mensagem com as instruções para começar.',
  positionOf: {
    one: 'de {count} pessoa na lista de espera',
    many: 'de {count} de pessoas na lista de espera',
    other: 'de {count} pessoas na lista de espera',
  },
  referralCode: 'Seu código de indicação',
  referrals: 'Indicações',
  referralsJoined: {
    one: '{count} pessoa entrou com seu código',
    many: '{count} de pessoas entraram com seu código',
    other: '{count} pessoas entraram com seu código',
  },
  shareHeading: 'Compartilhe seu link para subir na fila',
  shareLabel: 'Seu link para compartilhar',
  copyLink: 'Copiar link',
  linkCopied: 'Link copiado.',
  copyFailed: 'Não foi possível copiar: selecione o texto e copie.',
  notFoundTitle: 'Página não encontrada',
  notFoundText:
    'Este link de status não é válido. Verifique se você copiou o link completo da confirmação de inscrição.',

  confirmTitle: 'Confirme seu e-mail para {waitlist}',
  confirmedHeading: 'Seu e-mail foi confirmado',
  confirmedText: 'Tudo certo: você está na lista de espera de {waitlist} e seu endereço foi confirmado.',
  seeYourPlace: 'Ver seu lugar na fila',
  confirmHeading: 'Confirme seu e-mail',
  confirmText:
    'Clique no botão para confirmar que este endereço se inscreveu na lista de espera de {waitlist}. Se não foi você, feche esta página: nada vai acontecer.',
  confirmButton: 'Confirmar meu e-mail',
  badLinkTitle: 'Link inválido',
  badLinkHeading: 'Este link não é válido',
  badLinkText:
    'Verifique se você abriu o link completo do e-mail de confirmação ou inscreva-se de novo para receber outro.',
  tooManyHeading: 'Tentativas demais',
  tooManyText:
    'Houve tentativas de confirmação demais a partir desta conexão. Aguarde um minuto e clique no botão de novo.',

  unsubscribeTitle: 'Parar de receber e-mails de {waitlist}',
  unsubscribedHeading: 'Você não vai mais receber esses e-mails',
  unsubscribedText:
    'A lista de espera de {waitlist} não vai mais enviar e-mails de boas-vindas ou de indicação para você. Você mantém seu lugar na fila e ainda vai receber um aviso quando chegar sua vez.',
  unsubscribeHeading: 'Cancelar os e-mails',
  unsubscribeText:
    'Clique no botão para parar de receber os e-mails de boas-vindas e de indicação da lista de espera de {waitlist}. Você mantém seu lugar na fila e ainda vai receber um aviso quando chegar sua vez.',
  unsubscribeButton: 'Cancelar inscrição',

  confirmMailSubject: 'Confirme seu e-mail para {waitlist}',
  confirmMailIntro:
    'Alguém, esperamos que você, se inscreveu na lista de espera de {waitlist} com este endereço de e-mail.',
  confirmMailOpen: 'Para confirmar, abra este link e clique no botão:',
  confirmMailOr: 'Ou abra este link:',
  confirmMailKeep:
    'Você mantém seu lugar na fila de qualquer forma; ao confirmar, sua inscrição conta para quem indicou você.',
  confirmMailIgnore:
    'Se não foi você, ignore este e-mail: não enviaremos mais nada, a menos que alguém se inscreva de novo.',

  stopEmails: 'Para não receber mais estes e-mails: {link}',

  welcomeSubject: 'Você está na lista de espera de {{waitlist_name}}',
  welcomeBody:
    'Obrigado por se inscrever em {{waitlist_name}}. Você é o número {{position}} da fila.\n\nVamos escrever de novo quando chegar sua vez.',
  referralSubject: 'Alguém entrou em {{waitlist_name}} por indicação sua',
  referralBody:
    'Obrigado por compartilhar {{waitlist_name}}. Pessoas que entraram por indicação sua até agora: {{referral_count}}. Agora você é o número {{position}} da fila.',
  admittedSubject: 'Sua vez chegou: {{waitlist_name}}',
  admittedBody: 'Boa notícia: {{waitlist_name}} liberou seu acesso. Comece aqui: {{access_url}}',
};
