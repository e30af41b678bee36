import type { PageTexts } from './en.js';

// Formal "siz". The name never takes a suffix (which would follow its vowels): the noun after it
// does ("{waitlist} bekleme listesine").
export const tr: PageTexts = {
  statusTitle: '{waitlist} bekleme listesindeki yeriniz',
  checkInbox: 'Gelen kutunuzu kontrol edin:',
  checkInboxText:
    'e-posta adresinizi onaylamanız için size bir bağlantı gönderdik. Beklerken yerinizi korursunuz.',
  admittedHeading: 'Erişiminiz açıldı',
  admittedText:
    '{waitlist} size erişim verdi: artık beklemeniz gerekmiyor. Nasıl başlayacağınızı anlatan mesajı takip edin.',
  positionOf: {
    one: 'bekleme listesindeki {count} kişi arasında',
    other: 'bekleme listesindeki {count} kişi arasında',
  },
  referralCode: 'Davet kodunuz',
  referrals: 'Davetler',
  referralsJoined: { one: 'Kodunuzla {count} kişi katıldı', other: 'Kodunuzla {count} kişi katıldı' },
  shareHeading: 'Öne geçmek için bağlantınızı paylaşın',
  shareLabel: 'Paylaşım bağlantınız',
  copyLink: 'Bağlantıyı kopyala',
  linkCopied: 'Bağlantı kopyalandı.',
  copyFailed: 'Kopyalanamadı: metni seçip kendiniz kopyalayın.',
  notFoundTitle: 'Sayfa bulunamadı',
  notFoundText:
    'Bu durum bağlantısı geçerli değil. Kayıt onayınızdaki bağlantının tamamını kopyaladığınızdan emin olun.',

  confirmTitle: '{waitlist} için e-postanızı onaylayın',
  confirmedHeading: 'E-postanız onaylandı',
  confirmedText: 'Teşekkürler! {waitlist} bekleme listesindesiniz ve adresiniz onaylandı.',
  seeYourPlace: 'Sıradaki yerinizi görün',
  confirmHeading: 'E-postanızı onaylayın',
  confirmText:
    'Bu adresin {waitlist} bekleme listesine kaydolduğunu onaylamak için düğmeye basın. Siz değilseniz bu sayfayı kapatın: hiçbir şey olmaz.',
  confirmButton: 'E-postamı onayla',
  badLinkTitle: 'Geçersiz bağlantı',
  badLinkHeading: 'Bu bağlantı geçerli değil',
  badLinkText:
    'Onay e-postasındaki bağlantının tamamını açtığınızdan emin olun ya da yeni bir bağlantı almak için tekrar kaydolun.',
  tooManyHeading: 'Çok fazla deneme',
  // "Bağlantı" is both a link and a connection; the network is what is meant.
  tooManyText: 'Bu ağdan çok fazla onay denemesi yapıldı. Bir dakika bekleyip düğmeye tekrar basın.',

  unsubscribeTitle: '{waitlist} e-postalarından çıkın',
  unsubscribedHeading: 'Abonelikten çıktınız',
  unsubscribedText:
    '{waitlist} bekleme listesi artık size hoş geldin veya davet e-postaları göndermeyecek. Sıradaki yerinizi korursunuz ve erişim verildiğinde yine haber alırsınız.',
  unsubscribeHeading: 'Abonelikten çık',
  unsubscribeText:
    '{waitlist} bekleme listesinin hoş geldin ve davet e-postalarını durdurmak için düğmeye basın. Sıradaki yerinizi korursunuz ve erişim verildiğinde yine haber alırsınız.',
  unsubscribeButton: 'Abonelikten çık',

  confirmMailSubject: '{waitlist} için e-postanızı onaylayın',
  confirmMailIntro: 'Birisi, umarız sizsiniz, bu e-posta adresiyle {waitlist} bekleme listesine kaydoldu.',
  confirmMailOpen: 'Onaylamak için bu bağlantıyı açıp düğmeye basın:',
  confirmMailOr: 'Ya da bu bağlantıyı açın:',
  confirmMailKeep: 'Her durumda sıradaki yerinizi korursunuz; onaylamanız sizi davet eden kişi için sayılır.',
  confirmMailIgnore:
    'Siz değilseniz bu e-postayı yok sayın: biri yeniden kaydolmadıkça başka bir şey gönderilmeyecek.',

  stopEmails: 'Bu e-postaları durdurmak için: {link}',

  welcomeSubject: '{{waitlist_name}} bekleme listesindesiniz',
  welcomeBody:
    '{{waitlist_name}} bekleme listesine kaydolduğunuz için teşekkürler. Sıradaki numaranız: {{position}}.\n\nSıranız geldiğinde size tekrar yazacağız.',
  referralSubject: 'Biri sizin sayenizde {{waitlist_name}} bekleme listesine katıldı',
  referralBody:
    '{{waitlist_name}} bekleme listesini paylaştığınız için teşekkürler. Şimdiye kadar sizin sayenizde katılan kişi sayısı: {{referral_count}}. Sıradaki numaranız artık: {{position}}.',
  admittedSubject: 'Erişiminiz açıldı: {{waitlist_name}}',
  admittedBody: 'Güzel haber: {{waitlist_name}} size erişim verdi. Buradan başlayın: {{access_url}}',
};
