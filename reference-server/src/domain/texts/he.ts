import type { PageTexts } from './en.js';

// Gender-neutral: infinitives and nouns for what to do ("יש ללחוץ", "העתקת הקישור"), and only
// second-person forms that are spelled alike for both ("שלך", "נרשמת"). A prefix joins a name with
// a maqaf ("ל־{waitlist}"), as Hebrew does before a foreign word.
export const he: PageTexts = {
  statusTitle: 'המקום שלך ברשימת ההמתנה של {waitlist}',
  checkInbox: 'כדאי לבדוק את תיבת הדואר:',
  checkInboxText: 'שלחנו אליך קישור לאישור כתובת האימייל. המקום שלך נשמר בזמן ההמתנה.',
  admittedHeading: 'הגיע תורך',
  admittedText: 'הכניסה ל־{waitlist} פתוחה בפניך: ההמתנה הסתיימה. בקרוב תגיע הודעה עם הסבר איך להתחיל.',
  positionOf: {
    one: 'מתוך אדם אחד ברשימת ההמתנה',
    two: 'מתוך שני אנשים ברשימת ההמתנה',
    other: 'מתוך {count} אנשים ברשימת ההמתנה',
  },
  referralCode: 'קוד ההפניה שלך',
  referrals: 'הפניות',
  referralsJoined: {
    one: 'אדם אחד הצטרף עם הקוד שלך',
    two: 'שני אנשים הצטרפו עם הקוד שלך',
    other: '{count} אנשים הצטרפו עם הקוד שלך',
  },
  shareHeading: 'שיתוף הקישור שלך מקדם אותך בתור',
  shareLabel: 'קישור השיתוף שלך',
  copyLink: 'העתקת הקישור',
  linkCopied: 'הקישור הועתק.',
  copyFailed: 'ההעתקה נכשלה: יש לסמן את הטקסט ולהעתיק אותו.',
  notFoundTitle: 'הדף לא נמצא',
  notFoundText: 'קישור הסטטוס הזה אינו תקין. כדאי לוודא שהקישור כולו הועתק מאישור ההרשמה.',

  confirmTitle: 'אישור האימייל שלך ל־{waitlist}',
  confirmedHeading: 'האימייל שלך אושר',
  confirmedText: 'תודה! נרשמת לרשימת ההמתנה של {waitlist}, והכתובת שלך אושרה.',
  seeYourPlace: 'צפייה במקום שלך בתור',
  confirmHeading: 'אישור האימייל שלך',
  confirmText:
    'יש ללחוץ על הכפתור כדי לאשר שהכתובת הזו נרשמה לרשימת ההמתנה של {waitlist}. אם לא נרשמת, אפשר פשוט לסגור את הדף: שום דבר לא יקרה.',
  confirmButton: 'אישור האימייל שלי',
  badLinkTitle: 'הקישור אינו תקין',
  badLinkHeading: 'הקישור הזה אינו תקין',
  badLinkText: 'כדאי לוודא שנפתח הקישור המלא מהודעת האישור, או להירשם שוב כדי לקבל קישור חדש.',
  tooManyHeading: 'יותר מדי ניסיונות',
  tooManyText: 'היו יותר מדי ניסיונות אישור מהחיבור הזה. יש להמתין דקה ואז ללחוץ שוב על הכפתור.',

  unsubscribeTitle: 'הסרה מרשימת התפוצה של {waitlist}',
  unsubscribedHeading: 'הוסרת מרשימת התפוצה',
  unsubscribedText:
    'רשימת ההמתנה של {waitlist} לא תשלח אליך יותר הודעות קבלת פנים או הודעות על הפניות. המקום שלך בתור נשמר, ועדיין תגיע אליך הודעה כשיגיע תורך.',
  unsubscribeHeading: 'הסרה מרשימת התפוצה',
  unsubscribeText:
    'יש ללחוץ על הכפתור כדי להפסיק את הודעות קבלת הפנים וההודעות על הפניות מרשימת ההמתנה של {waitlist}. המקום שלך בתור נשמר, ועדיין תגיע אליך הודעה כשיגיע תורך.',
  unsubscribeButton: 'הסרה מהרשימה',

  confirmMailSubject: 'אישור האימייל שלך ל־{waitlist}',
  confirmMailIntro: 'כתובת האימייל הזו נרשמה לרשימת ההמתנה של {waitlist}, ואנחנו מקווים שזה נעשה על ידך.',
  confirmMailOpen: 'לאישור, יש לפתוח את הקישור הזה וללחוץ על הכפתור:',
  confirmMailOr: 'או לפתוח את הקישור הזה:',
  confirmMailKeep: 'המקום שלך בתור נשמר בכל מקרה; האישור נספר לזכות מי שהפנה אותך.',
  confirmMailIgnore: 'אם לא נרשמת, אפשר להתעלם מהאימייל הזה: לא יישלח דבר נוסף, אלא אם מישהו יירשם שוב.',

  stopEmails: 'להפסקת האימיילים האלה: {link}',

  welcomeSubject: 'נרשמת לרשימת ההמתנה של {{waitlist_name}}',
  welcomeBody:
    'תודה על ההרשמה ל־{{waitlist_name}}. המקום שלך בתור: {{position}}.\n\nנכתוב לך שוב כשיגיע תורך.',
  referralSubject: 'מישהו הצטרף ל־{{waitlist_name}} דרכך',
  referralBody:
    'תודה על השיתוף של {{waitlist_name}}. מספר האנשים שהצטרפו דרכך עד עכשיו: {{referral_count}}. המקום שלך בתור עכשיו: {{position}}.',
  admittedSubject: 'הגיע תורך: {{waitlist_name}}',
  admittedBody: 'חדשות טובות: הכניסה ל־{{waitlist_name}} פתוחה בפניך. אפשר להתחיל כאן: {{access_url}}',
};
