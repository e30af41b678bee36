import type { PageTexts } from './en.js';

// 해요체, as Korean services write. No particle follows a name or number directly (이/가, 을/를
// depend on its last sound): "{waitlist} 대기자 명단", "{waitlist}에서".
export const ko: PageTexts = {
  statusTitle: '{waitlist} 대기 순서',
  checkInbox: '받은편지함을 확인하세요.',
  checkInboxText: '이메일 주소를 확인할 수 있는 링크를 보냈어요. 기다리는 동안에도 순서는 그대로 유지돼요.',
  admittedHeading: '차례가 됐어요',
  admittedText:
    '{waitlist}에서 입장을 허락했어요. 이제 기다리지 않아도 돼요. 시작하는 방법을 안내하는 메시지를 확인해 주세요.',
  positionOf: { other: '대기자 {count}명 중' },
  referralCode: '내 추천 코드',
  referrals: '추천',
  referralsJoined: { other: '내 코드로 {count}명이 가입했어요' },
  shareHeading: '링크를 공유하고 순서를 앞당기세요',
  shareLabel: '내 공유 링크',
  copyLink: '링크 복사',
  linkCopied: '링크를 복사했어요.',
  copyFailed: '복사하지 못했어요. 텍스트를 선택해서 복사해 주세요.',
  notFoundTitle: '페이지를 찾을 수 없어요',
  notFoundText: '유효하지 않은 상태 링크예요. 가입 확인 메시지에 있는 링크 전체를 복사했는지 확인해 주세요.',

  confirmTitle: '{waitlist} 이메일 확인',
  confirmedHeading: '이메일이 확인됐어요',
  confirmedText: '감사합니다. {waitlist} 대기자 명단에 등록되었고 이메일 주소도 확인됐어요.',
  seeYourPlace: '내 대기 순서 보기',
  confirmHeading: '이메일 확인',
  confirmText:
    '이 주소로 {waitlist} 대기자 명단에 가입한 것이 맞다면 버튼을 눌러 주세요. 본인이 아니라면 이 페이지를 닫으세요. 아무 일도 일어나지 않아요.',
  confirmButton: '이메일 확인하기',
  badLinkTitle: '유효하지 않은 링크',
  badLinkHeading: '유효하지 않은 링크예요',
  badLinkText: '확인 이메일에 있는 링크 전체를 열었는지 확인하거나, 다시 가입해서 새 링크를 받으세요.',
  tooManyHeading: '시도 횟수가 너무 많아요',
  tooManyText: '이 네트워크에서 확인을 너무 많이 시도했어요. 1분 후에 버튼을 다시 눌러 주세요.',

  unsubscribeTitle: '{waitlist} 이메일 수신 거부',
  unsubscribedHeading: '수신 거부가 완료됐어요',
  unsubscribedText:
    '이제 {waitlist} 대기자 명단에서 환영 이메일과 추천 이메일을 보내지 않아요. 대기 순서는 그대로 유지되고, 입장할 차례가 되면 알려 드려요.',
  unsubscribeHeading: '이메일 수신 거부',
  unsubscribeText:
    '버튼을 누르면 {waitlist} 대기자 명단의 환영 이메일과 추천 이메일을 더 이상 받지 않아요. 대기 순서는 그대로 유지되고, 입장할 차례가 되면 알려 드려요.',
  unsubscribeButton: '수신 거부하기',

  confirmMailSubject: '{waitlist} 이메일 확인',
  confirmMailIntro: '누군가 이 이메일 주소로 {waitlist} 대기자 명단에 가입했어요. 본인이시길 바라요.',
  confirmMailOpen: '확인하려면 이 링크를 열고 버튼을 눌러 주세요:',
  confirmMailOr: '또는 이 링크를 여세요:',
  confirmMailKeep: '어느 쪽이든 대기 순서는 유지돼요. 확인하면 나를 추천한 사람의 추천으로 집계돼요.',
  confirmMailIgnore:
    '본인이 아니라면 이 이메일을 무시하세요. 누군가 다시 가입하지 않는 한 더 이상 메일을 보내지 않아요.',

  stopEmails: '이 이메일 수신 거부: {link}',

  welcomeSubject: '{{waitlist_name}} 대기자 명단에 등록됐어요',
  welcomeBody:
    '{{waitlist_name}}에 가입해 주셔서 감사합니다. 현재 대기 순서는 {{position}}번이에요.\n\n차례가 되면 다시 연락드릴게요.',
  referralSubject: '내 추천으로 누군가 {{waitlist_name}}에 가입했어요',
  referralBody:
    '{{waitlist_name}} 링크를 공유해 주셔서 감사해요. 지금까지 내 추천으로 가입한 사람: {{referral_count}}명. 현재 대기 순서는 {{position}}번이에요.',
  admittedSubject: '차례가 됐어요: {{waitlist_name}}',
  admittedBody: '좋은 소식이에요. 이제 {{waitlist_name}} 이용이 가능해요. 여기서 시작하세요: {{access_url}}',
};
