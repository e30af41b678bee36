import type { PageTexts } from './en.js';

// "bạn", as Vietnamese apps write.
export const vi: PageTexts = {
  statusTitle: 'Vị trí của bạn trong danh sách chờ {waitlist}',
  checkInbox: 'Hãy kiểm tra hộp thư đến:',
  checkInboxText:
    'chúng tôi đã gửi cho bạn một liên kết để xác nhận địa chỉ email. Bạn vẫn giữ vị trí của mình trong lúc chờ.',
  admittedHeading: 'Đã đến lượt bạn',
  admittedText:
    '{waitlist} đã cho bạn truy cập: bạn không cần chờ nữa. Hãy để ý tin nhắn hướng dẫn cách bắt đầu.',
  positionOf: { other: 'trên tổng số {count} người trong danh sách chờ' },
  referralCode: 'Mã giới thiệu của bạn',
  referrals: 'Lượt giới thiệu',
  referralsJoined: { other: '{count} người đã tham gia bằng mã của bạn' },
  shareHeading: 'Chia sẻ liên kết để lên vị trí cao hơn',
  shareLabel: 'Liên kết chia sẻ của bạn',
  copyLink: 'Sao chép liên kết',
  linkCopied: 'Đã sao chép liên kết.',
  copyFailed: 'Không sao chép được: hãy chọn văn bản và tự sao chép.',
  notFoundTitle: 'Không tìm thấy trang',
  notFoundText:
    'Liên kết trạng thái này không hợp lệ. Hãy kiểm tra xem bạn đã sao chép toàn bộ liên kết trong thư xác nhận đăng ký chưa.',

  confirmTitle: 'Xác nhận email của bạn cho {waitlist}',
  confirmedHeading: 'Email của bạn đã được xác nhận',
  confirmedText:
    'Cảm ơn bạn! Bạn đã có tên trong danh sách chờ {waitlist} và địa chỉ của bạn đã được xác nhận.',
  seeYourPlace: 'Xem vị trí của bạn',
  confirmHeading: 'Xác nhận email của bạn',
  confirmText:
    'Nhấn nút để xác nhận rằng địa chỉ này đã đăng ký danh sách chờ {waitlist}. Nếu đó không phải bạn, hãy đóng trang này: sẽ không có gì xảy ra.',
  confirmButton: 'Xác nhận email của tôi',
  badLinkTitle: 'Liên kết không hợp lệ',
  badLinkHeading: 'Liên kết này không hợp lệ',
  badLinkText:
    'Hãy kiểm tra xem bạn đã mở toàn bộ liên kết trong email xác nhận chưa, hoặc đăng ký lại để nhận liên kết mới.',
  tooManyHeading: 'Quá nhiều lần thử',
  tooManyText: 'Có quá nhiều lần xác nhận từ kết nối này. Hãy chờ một phút rồi nhấn nút lại.',

  unsubscribeTitle: 'Hủy đăng ký email từ {waitlist}',
  unsubscribedHeading: 'Bạn đã hủy đăng ký',
  unsubscribedText:
    'Danh sách chờ {waitlist} sẽ không gửi email chào mừng hay email giới thiệu cho bạn nữa. Bạn vẫn giữ vị trí của mình và vẫn sẽ được thông báo khi đến lượt.',
  unsubscribeHeading: 'Hủy đăng ký email',
  unsubscribeText:
    'Nhấn nút để ngừng nhận email chào mừng và email giới thiệu từ danh sách chờ {waitlist}. Bạn vẫn giữ vị trí của mình và vẫn sẽ được thông báo khi đến lượt.',
  unsubscribeButton: 'Hủy đăng ký',

  confirmMailSubject: 'Xác nhận email của bạn cho {waitlist}',
  confirmMailIntro: 'Ai đó, hy vọng là bạn, đã đăng ký danh sách chờ {waitlist} bằng địa chỉ email này.',
  confirmMailOpen: 'Để xác nhận, hãy mở liên kết này và nhấn nút:',
  confirmMailOr: 'Hoặc mở liên kết này:',
  confirmMailKeep:
    'Dù thế nào bạn vẫn giữ vị trí của mình; khi xác nhận, bạn sẽ được tính cho người đã giới thiệu bạn.',
  confirmMailIgnore:
    'Nếu đó không phải bạn, hãy bỏ qua email này: chúng tôi sẽ không gửi gì thêm trừ khi có người đăng ký lại.',

  stopEmails: 'Để ngừng nhận các email này: {link}',

  welcomeSubject: 'Bạn đã có tên trong danh sách chờ {{waitlist_name}}',
  welcomeBody:
    'Cảm ơn bạn đã đăng ký {{waitlist_name}}. Bạn đang ở vị trí số {{position}}.\n\nChúng tôi sẽ liên hệ lại khi đến lượt bạn.',
  referralSubject: 'Có người đã tham gia {{waitlist_name}} nhờ bạn',
  referralBody:
    'Cảm ơn bạn đã chia sẻ {{waitlist_name}}. Số người đã tham gia nhờ bạn đến nay: {{referral_count}}. Bạn hiện ở vị trí số {{position}}.',
  admittedSubject: 'Đã đến lượt bạn: {{waitlist_name}}',
  admittedBody: 'Tin vui: {{waitlist_name}} đã cho bạn truy cập. Bắt đầu tại đây: {{access_url}}',
};
