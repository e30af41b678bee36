import type { PageTexts } from './en.js';

// Respectful "আপনি", as services address their users; a case ending joins a name with a hyphen ("{waitlist}-এর"), as Bengali does
// for foreign names.
export const bn: PageTexts = {
  statusTitle: '{waitlist}-এর অপেক্ষমাণ তালিকায় আপনার স্থান',
  checkInbox: 'আপনার ইনবক্স দেখুন:',
  checkInboxText: 'আপনার ইমেল ঠিকানা নিশ্চিত করার জন্য আমরা একটি লিংক পাঠিয়েছি। অপেক্ষার সময় আপনার স্থান বজায় থাকবে।',
  admittedHeading: 'আপনার পালা এসেছে',
  admittedText:
    '{waitlist} আপনাকে প্রবেশের সুযোগ দিয়েছে: আর অপেক্ষা করতে হবে না। কীভাবে শুরু করবেন, সে বিষয়ে তাদের বার্তার দিকে নজর রাখুন।',
  positionOf: {
    one: 'অপেক্ষমাণ তালিকার মোট {count} জনের মধ্যে',
    other: 'অপেক্ষমাণ তালিকার মোট {count} জনের মধ্যে',
  },
  referralCode: 'আপনার রেফারেল কোড',
  referrals: 'রেফারেল',
  referralsJoined: {
    one: 'আপনার কোড দিয়ে {count} জন যোগ দিয়েছেন',
    other: 'আপনার কোড দিয়ে {count} জন যোগ দিয়েছেন',
  },
  shareHeading: 'এগিয়ে যেতে আপনার লিংক শেয়ার করুন',
  shareLabel: 'আপনার শেয়ার লিংক',
  copyLink: 'লিংক কপি করুন',
  linkCopied: 'লিংক কপি হয়েছে।',
  copyFailed: 'কপি করা যায়নি: লেখাটি নির্বাচন করে কপি করুন।',
  notFoundTitle: 'পেজ পাওয়া যায়নি',
  notFoundText: 'এই স্ট্যাটাস লিংকটি বৈধ নয়। সাইন-আপ নিশ্চিতকরণ থেকে পুরো লিংকটি কপি করেছেন কি না দেখে নিন।',

  confirmTitle: '{waitlist}-এর জন্য আপনার ইমেল নিশ্চিত করুন',
  confirmedHeading: 'আপনার ইমেল নিশ্চিত হয়েছে',
  confirmedText: 'ধন্যবাদ! আপনি {waitlist}-এর অপেক্ষমাণ তালিকায় আছেন, এবং আপনার ঠিকানা নিশ্চিত হয়েছে।',
  seeYourPlace: 'সারিতে আপনার স্থান দেখুন',
  confirmHeading: 'আপনার ইমেল নিশ্চিত করুন',
  confirmText:
    'এই ঠিকানা দিয়ে {waitlist}-এর অপেক্ষমাণ তালিকায় সাইন আপ করা হয়েছে, তা নিশ্চিত করতে বোতামটি চাপুন। এটি আপনি না করে থাকলে এই পেজটি বন্ধ করুন: কিছুই ঘটবে না।',
  confirmButton: 'আমার ইমেল নিশ্চিত করুন',
  badLinkTitle: 'লিংকটি বৈধ নয়',
  badLinkHeading: 'এই লিংকটি বৈধ নয়',
  badLinkText: 'নিশ্চিতকরণ ইমেলের পুরো লিংকটি খুলেছেন কি না দেখে নিন, অথবা নতুন লিংক পেতে আবার সাইন আপ করুন।',
  tooManyHeading: 'অনেক বেশি চেষ্টা',
  tooManyText: 'এই সংযোগ থেকে অনেক বেশিবার নিশ্চিত করার চেষ্টা হয়েছে। এক মিনিট অপেক্ষা করে আবার বোতামটি চাপুন।',

  unsubscribeTitle: '{waitlist}-এর ইমেল বন্ধ করুন',
  unsubscribedHeading: 'আপনি আনসাবস্ক্রাইব করেছেন',
  unsubscribedText:
    '{waitlist}-এর অপেক্ষমাণ তালিকা আপনাকে আর স্বাগত বা রেফারেল ইমেল পাঠাবে না। সারিতে আপনার স্থান বজায় থাকবে, এবং প্রবেশের সুযোগ পেলে আপনাকে তবুও জানানো হবে।',
  unsubscribeHeading: 'ইমেল থেকে আনসাবস্ক্রাইব',
  unsubscribeText:
    '{waitlist}-এর অপেক্ষমাণ তালিকার স্বাগত ও রেফারেল ইমেল বন্ধ করতে বোতামটি চাপুন। সারিতে আপনার স্থান বজায় থাকবে, এবং প্রবেশের সুযোগ পেলে আপনাকে তবুও জানানো হবে।',
  unsubscribeButton: 'আনসাবস্ক্রাইব করুন',

  confirmMailSubject: '{waitlist}-এর জন্য আপনার ইমেল নিশ্চিত করুন',
  confirmMailIntro: 'কেউ একজন, আশা করি আপনিই, এই ইমেল ঠিকানা দিয়ে {waitlist}-এর অপেক্ষমাণ তালিকায় সাইন আপ করেছেন।',
  confirmMailOpen: 'নিশ্চিত করতে এই লিংকটি খুলে বোতামটি চাপুন:',
  confirmMailOr: 'অথবা এই লিংকটি খুলুন:',
  confirmMailKeep:
    'যা-ই করুন, সারিতে আপনার স্থান বজায় থাকবে; নিশ্চিত করলে যিনি আপনাকে রেফার করেছেন, তাঁর হিসাবে আপনি গণ্য হবেন।',
  confirmMailIgnore: 'এটি আপনি না করে থাকলে এই ইমেলটি উপেক্ষা করুন: কেউ আবার সাইন আপ না করলে আমরা আর কিছু পাঠাব না।',

  stopEmails: 'এই ইমেলগুলো বন্ধ করতে: {link}',

  welcomeSubject: 'আপনি {{waitlist_name}}-এর অপেক্ষমাণ তালিকায় আছেন',
  welcomeBody:
    '{{waitlist_name}}-এ সাইন আপ করার জন্য ধন্যবাদ। সারিতে আপনার নম্বর {{position}}।\n\nআপনার পালা এলে আমরা আবার লিখব।',
  referralSubject: 'আপনার মাধ্যমে কেউ {{waitlist_name}}-এ যোগ দিয়েছেন',
  referralBody:
    '{{waitlist_name}} শেয়ার করার জন্য ধন্যবাদ। এ পর্যন্ত আপনার মাধ্যমে যোগ দিয়েছেন: {{referral_count}} জন। এখন সারিতে আপনার নম্বর {{position}}।',
  admittedSubject: 'আপনার পালা এসেছে: {{waitlist_name}}',
  admittedBody: 'সুখবর: {{waitlist_name}} আপনাকে প্রবেশের সুযোগ দিয়েছে। এখান থেকে শুরু করুন: {{access_url}}',
};
