import type { PageTexts } from './en.js';

// Polite "شما"; Persian punctuation (، ؛) and the zero-width non-joiner inside words ("می‌ماند").
export const fa: PageTexts = {
  statusTitle: 'جایگاه شما در فهرست انتظار {waitlist}',
  checkInbox: 'صندوق ورودی ایمیل خود را بررسی کنید:',
  checkInboxText: 'پیوندی برای تأیید نشانی ایمیلتان فرستادیم. تا زمانی که منتظرید، جایگاهتان محفوظ می‌ماند.',
  admittedHeading: 'نوبت شما رسید',
  admittedText:
    '{waitlist} به شما دسترسی داد: دیگر لازم نیست منتظر بمانید. منتظر پیامشان دربارهٔ نحوهٔ شروع باشید.',
  positionOf: {
    one: 'از میان {count} نفر در فهرست انتظار',
    other: 'از میان {count} نفر در فهرست انتظار',
  },
  referralCode: 'کد معرفی شما',
  referrals: 'معرفی‌ها',
  referralsJoined: {
    one: '{count} نفر با کد شما پیوسته است',
    other: '{count} نفر با کد شما پیوسته‌اند',
  },
  shareHeading: 'برای جلو افتادن در صف، پیوندتان را به اشتراک بگذارید',
  shareLabel: 'پیوند اشتراک‌گذاری شما',
  copyLink: 'کپی پیوند',
  linkCopied: 'پیوند کپی شد.',
  copyFailed: 'کپی نشد: متن را انتخاب و کپی کنید.',
  notFoundTitle: 'صفحه پیدا نشد',
  notFoundText: 'این پیوند وضعیت معتبر نیست. مطمئن شوید که کل پیوند را از تأییدیهٔ ثبت‌نامتان کپی کرده‌اید.',

  confirmTitle: 'ایمیل خود را برای {waitlist} تأیید کنید',
  confirmedHeading: 'ایمیل شما تأیید شد',
  confirmedText: 'سپاسگزاریم! شما در فهرست انتظار {waitlist} هستید و نشانی‌تان تأیید شده است.',
  seeYourPlace: 'دیدن جایگاهتان در صف',
  confirmHeading: 'ایمیل خود را تأیید کنید',
  confirmText:
    'برای تأیید اینکه این نشانی در فهرست انتظار {waitlist} ثبت‌نام کرده است، دکمه را بزنید. اگر شما نبودید، این صفحه را ببندید: هیچ اتفاقی نمی‌افتد.',
  confirmButton: 'تأیید ایمیل من',
  badLinkTitle: 'پیوند نامعتبر',
  badLinkHeading: 'این پیوند معتبر نیست',
  badLinkText:
    'مطمئن شوید که کل پیوند ایمیل تأیید را باز کرده‌اید، یا دوباره ثبت‌نام کنید تا پیوند تازه‌ای بگیرید.',
  tooManyHeading: 'تلاش‌های بیش از حد',
  tooManyText:
    'از این اتصال بیش از حد برای تأیید تلاش شده است. یک دقیقه صبر کنید و سپس دوباره دکمه را بزنید.',

  unsubscribeTitle: 'لغو اشتراک ایمیل‌های {waitlist}',
  unsubscribedHeading: 'اشتراک شما لغو شد',
  unsubscribedText:
    'فهرست انتظار {waitlist} دیگر ایمیل خوشامد یا معرفی برایتان نمی‌فرستد. جایگاهتان در صف محفوظ می‌ماند و وقتی به شما دسترسی داده شود، همچنان باخبر می‌شوید.',
  unsubscribeHeading: 'لغو اشتراک ایمیل‌ها',
  unsubscribeText:
    'برای توقف ایمیل‌های خوشامد و معرفی فهرست انتظار {waitlist}، دکمه را بزنید. جایگاهتان در صف محفوظ می‌ماند و وقتی به شما دسترسی داده شود، همچنان باخبر می‌شوید.',
  unsubscribeButton: 'لغو اشتراک',

  confirmMailSubject: 'ایمیل خود را برای {waitlist} تأیید کنید',
  confirmMailIntro:
    'کسی، که امیدواریم خودتان باشید، با این نشانی ایمیل در فهرست انتظار {waitlist} ثبت‌نام کرده است.',
  confirmMailOpen: 'برای تأیید، این پیوند را باز کنید و دکمه را بزنید:',
  confirmMailOr: 'یا این پیوند را باز کنید:',
  confirmMailKeep:
    'در هر صورت جایگاهتان در صف محفوظ می‌ماند؛ با تأیید، برای کسی که شما را معرفی کرده است حساب می‌شوید.',
  confirmMailIgnore:
    'اگر شما نبودید، این ایمیل را نادیده بگیرید: تا کسی دوباره ثبت‌نام نکند، چیز دیگری فرستاده نمی‌شود.',

  stopEmails: 'برای توقف این ایمیل‌ها: {link}',

  welcomeSubject: 'شما در فهرست انتظار {{waitlist_name}} هستید',
  welcomeBody:
    'از ثبت‌نامتان در {{waitlist_name}} سپاسگزاریم. شمارهٔ شما در صف {{position}} است.\n\nوقتی نوبتتان شد، دوباره برایتان می‌نویسیم.',
  referralSubject: 'کسی از طریق شما به {{waitlist_name}} پیوست',
  referralBody:
    'از اینکه {{waitlist_name}} را به اشتراک گذاشتید سپاسگزاریم. تعداد کسانی که تاکنون از طریق شما پیوسته‌اند: {{referral_count}}. اکنون شمارهٔ شما در صف {{position}} است.',
  admittedSubject: 'نوبت شما رسید: {{waitlist_name}}',
  admittedBody: 'خبر خوب: {{waitlist_name}} به شما دسترسی داد. از اینجا شروع کنید: {{access_url}}',
};
