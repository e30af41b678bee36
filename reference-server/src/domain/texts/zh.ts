import type { PageTexts } from './en.js';

// 您; full-width punctuation, and no spaces around names and numbers, whatever script the name is in.
export const zh: PageTexts = {
  statusTitle: '您在{waitlist}候补名单中的位置',
  checkInbox: '请查看收件箱：',
  checkInboxText: '我们已向您发送一个链接，用于确认您的邮箱地址。等待期间，您的位置会一直保留。',
  admittedHeading: '轮到您了',
  admittedText: '{waitlist}已为您开放使用，您无需再等待。请留意对方发来的入门说明。',
  positionOf: { other: '候补名单共{count}人' },
  referralCode: '您的邀请码',
  referrals: '邀请',
  referralsJoined: { other: '已有{count}人通过您的邀请码加入' },
  shareHeading: '分享您的链接，提前排位',
  shareLabel: '您的分享链接',
  copyLink: '复制链接',
  linkCopied: '链接已复制。',
  copyFailed: '复制失败：请选中文本后手动复制。',
  notFoundTitle: '找不到页面',
  notFoundText: '此状态链接无效。请确认您复制了注册确认中的完整链接。',

  confirmTitle: '为{waitlist}确认您的邮箱',
  confirmedHeading: '您的邮箱已确认',
  confirmedText: '谢谢！您已加入{waitlist}候补名单，邮箱地址也已确认。',
  seeYourPlace: '查看您的排队位置',
  confirmHeading: '确认您的邮箱',
  confirmText:
    '请点击按钮，确认是此邮箱地址加入了{waitlist}候补名单。如果不是您本人操作，请关闭此页面，不会有任何影响。',
  confirmButton: '确认我的邮箱',
  badLinkTitle: '链接无效',
  badLinkHeading: '此链接无效',
  badLinkText: '请确认您打开的是确认邮件中的完整链接，或重新注册以获取新链接。',
  tooManyHeading: '尝试次数过多',
  tooManyText: '此网络的确认尝试过于频繁。请等待一分钟后再次点击按钮。',

  unsubscribeTitle: '退订{waitlist}的邮件',
  unsubscribedHeading: '您已退订',
  unsubscribedText:
    '{waitlist}候补名单将不再向您发送欢迎邮件和邀请邮件。您仍会保留排队位置，轮到您时也仍会收到通知。',
  unsubscribeHeading: '退订邮件',
  unsubscribeText:
    '点击按钮即可停止接收{waitlist}候补名单的欢迎邮件和邀请邮件。您仍会保留排队位置，轮到您时也仍会收到通知。',
  unsubscribeButton: '退订',

  confirmMailSubject: '为{waitlist}确认您的邮箱',
  confirmMailIntro: '有人使用此邮箱地址加入了{waitlist}候补名单，希望是您本人。',
  confirmMailOpen: '如需确认，请打开此链接并点击按钮：',
  confirmMailOr: '或打开此链接：',
  confirmMailKeep: '无论是否确认，您的排队位置都会保留；确认后，您将计入邀请您的人的邀请人数。',
  confirmMailIgnore: '如果不是您本人操作，请忽略此邮件：除非有人再次注册，否则我们不会再发送任何邮件。',

  stopEmails: '退订这些邮件：{link}',

  welcomeSubject: '您已加入{{waitlist_name}}候补名单',
  welcomeBody: '感谢您注册{{waitlist_name}}。您目前排在第{{position}}位。\n\n轮到您时，我们会再次联系您。',
  referralSubject: '有人通过您加入了{{waitlist_name}}',
  referralBody:
    '感谢您分享{{waitlist_name}}。目前通过您加入的人数：{{referral_count}}。您现在排在第{{position}}位。',
  admittedSubject: '轮到您了：{{waitlist_name}}',
  admittedBody: '好消息：{{waitlist_name}}已为您开放使用。从这里开始：{{access_url}}',
};
