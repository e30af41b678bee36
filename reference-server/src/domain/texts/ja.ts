import type { PageTexts } from './en.js';

// です・ます; no spaces around names and numbers, whatever script the name is in.
export const ja: PageTexts = {
  statusTitle: '{waitlist}のウェイトリストでのあなたの順番',
  checkInbox: '受信トレイをご確認ください。',
  checkInboxText:
    'メールアドレスを確認するためのリンクをお送りしました。お待ちいただく間も、順番はそのまま保たれます。',
  admittedHeading: 'ご利用いただけるようになりました',
  admittedText:
    '{waitlist}の順番が来ました。もうお待ちいただく必要はありません。利用開始の方法をお知らせするメッセージをお待ちください。',
  positionOf: { other: 'ウェイトリスト登録者{count}人中' },
  referralCode: 'あなたの紹介コード',
  referrals: '紹介',
  referralsJoined: { other: 'あなたのコードで{count}人が登録しました' },
  shareHeading: 'リンクをシェアして順番を上げましょう',
  shareLabel: 'シェア用リンク',
  copyLink: 'リンクをコピー',
  linkCopied: 'リンクをコピーしました。',
  copyFailed: 'コピーできませんでした。テキストを選択してコピーしてください。',
  notFoundTitle: 'ページが見つかりません',
  notFoundText:
    'このステータスリンクは無効です。登録確認のメッセージからリンク全体をコピーしたかご確認ください。',

  confirmTitle: '{waitlist}のメールアドレス確認',
  confirmedHeading: 'メールアドレスが確認されました',
  confirmedText:
    'ありがとうございます。{waitlist}のウェイトリストに登録され、メールアドレスも確認されました。',
  seeYourPlace: '順番を見る',
  confirmHeading: 'メールアドレスの確認',
  confirmText:
    'このアドレスで{waitlist}のウェイトリストに登録したことを確認するには、ボタンを押してください。お心当たりがない場合は、このページを閉じてください。何も起こりません。',
  confirmButton: 'メールアドレスを確認する',
  badLinkTitle: '無効なリンク',
  badLinkHeading: 'このリンクは無効です',
  badLinkText:
    '確認メールのリンク全体を開いたかご確認いただくか、もう一度登録して新しいリンクを受け取ってください。',
  tooManyHeading: '試行回数が多すぎます',
  tooManyText: 'この接続から確認が何度も行われました。1分ほど待ってから、もう一度ボタンを押してください。',

  unsubscribeTitle: '{waitlist}のメール配信停止',
  unsubscribedHeading: '配信を停止しました',
  unsubscribedText:
    '{waitlist}のウェイトリストから、ウェルカムメールと紹介に関するメールは今後届きません。順番はそのまま保たれ、ご利用いただけるようになった際にはお知らせが届きます。',
  unsubscribeHeading: 'メール配信の停止',
  unsubscribeText:
    '{waitlist}のウェイトリストからのウェルカムメールと紹介に関するメールを停止するには、ボタンを押してください。順番はそのまま保たれ、ご利用いただけるようになった際にはお知らせが届きます。',
  unsubscribeButton: '配信を停止する',

  confirmMailSubject: '{waitlist}のメールアドレス確認',
  confirmMailIntro:
    'このメールアドレスで{waitlist}のウェイトリストへの登録がありました（ご本人による登録であれば幸いです）。',
  confirmMailOpen: '確認するには、このリンクを開いてボタンを押してください：',
  confirmMailOr: 'または、こちらのリンクを開いてください：',
  confirmMailKeep:
    'いずれの場合も順番はそのまま保たれます。確認すると、あなたを紹介した方の紹介として数えられます。',
  confirmMailIgnore:
    'お心当たりがない場合は、このメールを無視してください。再度登録がない限り、これ以上メールは送信されません。',

  stopEmails: 'これらのメールの配信停止：{link}',

  welcomeSubject: '{{waitlist_name}}のウェイトリストに登録されました',
  welcomeBody:
    '{{waitlist_name}}にご登録いただきありがとうございます。現在の順番は{{position}}番です。\n\n順番が来ましたら、改めてご連絡します。',
  referralSubject: 'あなたの紹介で{{waitlist_name}}に登録がありました',
  referralBody:
    '{{waitlist_name}}をシェアしていただきありがとうございます。これまでにあなたの紹介で登録した人数：{{referral_count}}。現在の順番は{{position}}番です。',
  admittedSubject: 'ご利用いただけます：{{waitlist_name}}',
  admittedBody:
    'お知らせです。{{waitlist_name}}をご利用いただけるようになりました。こちらから始められます：{{access_url}}',
};
