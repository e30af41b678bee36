import type { PageTexts } from './en.js';

// Gender-neutral: no imperative (which is masculine or feminine) but "يُرجى" and nouns, and
// pronoun suffixes, which are written alike for both. One and two are said without the numeral
// ("شخص واحد", "شخصان"), as Arabic counts; 3–10 take the plural, 11–99 the accusative singular.
export const ar: PageTexts = {
  statusTitle: 'موقعك في قائمة انتظار {waitlist}',
  checkInbox: 'يُرجى التحقق من بريدك الوارد:',
  checkInboxText: 'أرسلنا إليك رابطًا لتأكيد عنوان بريدك الإلكتروني. يبقى مكانك محفوظًا أثناء الانتظار.',
  admittedHeading: 'حان دورك',
  admittedText: 'تم قبولك في {waitlist}: انتهى الانتظار. ستصلك قريبًا رسالة توضّح كيفية البدء.',
  positionOf: {
    zero: 'من أصل {count} شخص في قائمة الانتظار',
    one: 'من أصل شخص واحد في قائمة الانتظار',
    two: 'من أصل شخصين في قائمة الانتظار',
    few: 'من أصل {count} أشخاص في قائمة الانتظار',
    many: 'من أصل {count} شخصًا في قائمة الانتظار',
    other: 'من أصل {count} شخص في قائمة الانتظار',
  },
  referralCode: 'رمز الإحالة الخاص بك',
  referrals: 'الإحالات',
  referralsJoined: {
    zero: 'لم ينضم أحد برمزك بعد',
    one: 'انضم شخص واحد برمزك',
    two: 'انضم شخصان برمزك',
    few: 'انضم {count} أشخاص برمزك',
    many: 'انضم {count} شخصًا برمزك',
    other: 'انضم {count} شخص برمزك',
  },
  shareHeading: 'مشاركة رابطك تقدّمك في القائمة',
  shareLabel: 'رابط المشاركة الخاص بك',
  copyLink: 'نسخ الرابط',
  linkCopied: 'تم نسخ الرابط.',
  copyFailed: 'تعذّر النسخ: يُرجى تحديد النص ونسخه.',
  notFoundTitle: 'الصفحة غير موجودة',
  notFoundText: 'رابط الحالة هذا غير صالح. يُرجى التأكد من نسخ الرابط كاملًا من رسالة تأكيد التسجيل.',

  confirmTitle: 'تأكيد بريدك الإلكتروني لقائمة انتظار {waitlist}',
  confirmedHeading: 'تم تأكيد بريدك الإلكتروني',
  confirmedText: 'شكرًا لك! أنت الآن في قائمة انتظار {waitlist}، وتم تأكيد عنوانك.',
  seeYourPlace: 'عرض مكانك في الدور',
  confirmHeading: 'تأكيد بريدك الإلكتروني',
  confirmText:
    'يُرجى الضغط على الزر لتأكيد أن هذا العنوان سُجّل في قائمة انتظار {waitlist}. إذا لم يكن هذا أنت، فيمكنك إغلاق هذه الصفحة: لن يحدث شيء.',
  confirmButton: 'تأكيد بريدي الإلكتروني',
  badLinkTitle: 'رابط غير صالح',
  badLinkHeading: 'هذا الرابط غير صالح',
  badLinkText: 'يُرجى التأكد من فتح الرابط كاملًا من رسالة التأكيد، أو التسجيل من جديد للحصول على رابط جديد.',
  tooManyHeading: 'محاولات كثيرة جدًا',
  tooManyText: 'جرت محاولات تأكيد كثيرة جدًا من هذا الاتصال. يُرجى الانتظار دقيقة ثم الضغط على الزر مرة أخرى.',

  unsubscribeTitle: 'إلغاء الاشتراك في رسائل {waitlist}',
  unsubscribedHeading: 'تم إلغاء اشتراكك',
  unsubscribedText:
    'لن تصلك بعد الآن رسائل الترحيب أو الإحالة من قائمة انتظار {waitlist}. يبقى مكانك في الدور محفوظًا، وسيصلك إشعار عند قبولك.',
  unsubscribeHeading: 'إلغاء الاشتراك في الرسائل',
  unsubscribeText:
    'يُرجى الضغط على الزر لإيقاف رسائل الترحيب والإحالة من قائمة انتظار {waitlist}. يبقى مكانك في الدور محفوظًا، وسيصلك إشعار عند قبولك.',
  unsubscribeButton: 'إلغاء الاشتراك',

  confirmMailSubject: 'تأكيد بريدك الإلكتروني لقائمة انتظار {waitlist}',
  confirmMailIntro: 'سجّل شخص ما، نأمل أن يكون أنت، في قائمة انتظار {waitlist} بعنوان البريد الإلكتروني هذا.',
  confirmMailOpen: 'للتأكيد، يُرجى فتح هذا الرابط والضغط على الزر:',
  confirmMailOr: 'أو يمكنك فتح هذا الرابط:',
  confirmMailKeep: 'يبقى مكانك في الدور محفوظًا في كل الأحوال؛ وعند التأكيد يُحتسب تسجيلك لصالح من دعاك.',
  confirmMailIgnore: 'إذا لم يكن هذا أنت، فلا حاجة إلى أي إجراء: لن نرسل شيئًا آخر ما لم يسجّل أحد من جديد.',

  stopEmails: 'لإيقاف هذه الرسائل: {link}',

  welcomeSubject: 'أنت الآن في قائمة انتظار {{waitlist_name}}',
  welcomeBody:
    'شكرًا لتسجيلك في {{waitlist_name}}. ترتيبك في الدور: {{position}}.\n\nسنراسلك مجددًا عندما يحين دورك.',
  referralSubject: 'انضم شخص إلى {{waitlist_name}} عن طريقك',
  referralBody:
    'شكرًا لمشاركتك {{waitlist_name}}. عدد من انضموا عن طريقك حتى الآن: {{referral_count}}. ترتيبك في الدور الآن: {{position}}.',
  admittedSubject: 'حان دورك: {{waitlist_name}}',
  admittedBody: 'خبر سار: تم قبولك في {{waitlist_name}}. يمكنك البدء من هنا: {{access_url}}',
};
