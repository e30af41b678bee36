import type { PageTexts } from './en.js';

// 您, in the words of Taiwan (zh-TW, zh-HK and zh-MO readers come here); full-width punctuation,
// and no spaces around names and numbers, whatever script the name is in.
export const zhHant: PageTexts = {
  statusTitle: '您在{waitlist}候補名單中的位置',
  checkInbox: '請查看收件匣：',
  checkInboxText: '我們已寄送一個連結給您，用來確認您的電子郵件地址。等待期間，您的位置會一直保留。',
  admittedHeading: '輪到您了',
  admittedText: '{waitlist}已為您開放使用，您不必再等待。請留意對方寄來的使用說明。',
  positionOf: { other: '候補名單共{count}人' },
  referralCode: '您的邀請碼',
  referrals: '邀請',
  referralsJoined: { other: '已有{count}人透過您的邀請碼加入' },
  shareHeading: '分享您的連結，提前順位',
  shareLabel: '您的分享連結',
  copyLink: '複製連結',
  linkCopied: '已複製連結。',
  copyFailed: '複製失敗：請選取文字後手動複製。',
  notFoundTitle: '找不到網頁',
  notFoundText: '此狀態連結無效。請確認您複製了註冊確認信中的完整連結。',

  confirmTitle: '確認您在{waitlist}的電子郵件',
  confirmedHeading: '您的電子郵件已確認',
  confirmedText: '謝謝！您已加入{waitlist}候補名單，電子郵件地址也已確認。',
  seeYourPlace: '查看您的排隊位置',
  confirmHeading: '確認您的電子郵件',
  confirmText:
    '請按下按鈕，確認是這個地址加入了{waitlist}候補名單。如果不是您本人，請關閉此頁面，不會有任何影響。',
  confirmButton: '確認我的電子郵件',
  badLinkTitle: '連結無效',
  badLinkHeading: '此連結無效',
  badLinkText: '請確認您開啟的是確認信中的完整連結，或重新註冊以取得新連結。',
  tooManyHeading: '嘗試次數過多',
  tooManyText: '此網路的確認嘗試過於頻繁。請稍候一分鐘，再按一次按鈕。',

  unsubscribeTitle: '取消訂閱{waitlist}的郵件',
  unsubscribedHeading: '您已取消訂閱',
  unsubscribedText:
    '{waitlist}候補名單將不再寄送歡迎信和邀請信給您。您仍會保留排隊位置，輪到您時也仍會收到通知。',
  unsubscribeHeading: '取消訂閱郵件',
  unsubscribeText:
    '按下按鈕即可停止接收{waitlist}候補名單的歡迎信和邀請信。您仍會保留排隊位置，輪到您時也仍會收到通知。',
  unsubscribeButton: '取消訂閱',

  confirmMailSubject: '確認您在{waitlist}的電子郵件',
  confirmMailIntro: '有人使用此電子郵件地址加入了{waitlist}候補名單，希望是您本人。',
  confirmMailOpen: '如要確認，請開啟此連結並按下按鈕：',
  confirmMailOr: '或開啟此連結：',
  confirmMailKeep: '無論是否確認，您的排隊位置都會保留；確認後，您會計入邀請您的人的邀請人數。',
  confirmMailIgnore: '如果不是您本人，請忽略這封郵件：除非有人再次註冊，否則我們不會再寄送任何郵件。',

  stopEmails: '取消訂閱這些郵件：{link}',

  welcomeSubject: '您已加入{{waitlist_name}}候補名單',
  welcomeBody: '感謝您註冊{{waitlist_name}}。您目前排在第{{position}}位。\n\n輪到您時，我們會再與您聯絡。',
  referralSubject: '有人透過您加入了{{waitlist_name}}',
  referralBody:
    '感謝您分享{{waitlist_name}}。目前透過您加入的人數：{{referral_count}}。您現在排在第{{position}}位。',
  admittedSubject: '輪到您了：{{waitlist_name}}',
  admittedBody: '好消息：{{waitlist_name}}已為您開放使用。從這裡開始：{{access_url}}',
};
