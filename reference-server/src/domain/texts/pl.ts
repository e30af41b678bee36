import type { PageTexts } from './en.js';

// Informal "Ty", capitalised as Polish mail does; impersonal forms ("zapisano", "skopiowano")
// where a past tense would otherwise say whether the reader is a man or a woman. `other` is for
// fractions only: "z 1,5 osoby".
export const pl: PageTexts = {
  statusTitle: 'Twoje miejsce na liście oczekujących {waitlist}',
  checkInbox: 'Sprawdź skrzynkę odbiorczą:',
  checkInboxText: 'wysłaliśmy Ci link do potwierdzenia adresu e-mail. Czekając, zachowujesz swoje miejsce.',
  admittedHeading: 'Masz już dostęp',
  admittedText: '{waitlist} przyznaje Ci dostęp: koniec czekania. Wkrótce dostaniesz wiadomość, jak zacząć.',
  positionOf: {
    one: 'z {count} osoby na liście oczekujących',
    few: 'z {count} osób na liście oczekujących',
    many: 'z {count} osób na liście oczekujących',
    other: 'z {count} osoby na liście oczekujących',
  },
  referralCode: 'Twój kod polecający',
  referrals: 'Polecenia',
  referralsJoined: {
    one: '{count} osoba dołączyła z Twojego polecenia',
    few: '{count} osoby dołączyły z Twojego polecenia',
    many: '{count} osób dołączyło z Twojego polecenia',
    other: '{count} osoby dołączyło z Twojego polecenia',
  },
  shareHeading: 'Udostępnij link, by przesunąć się w kolejce',
  shareLabel: 'Twój link do udostępnienia',
  copyLink: 'Kopiuj link',
  linkCopied: 'Skopiowano link.',
  copyFailed: 'Nie udało się skopiować: zaznacz tekst i skopiuj go.',
  notFoundTitle: 'Nie znaleziono strony',
  notFoundText:
    'Ten link do statusu jest nieprawidłowy. Sprawdź, czy skopiowano cały link z potwierdzenia zapisu.',

  confirmTitle: 'Potwierdź adres e-mail dla {waitlist}',
  confirmedHeading: 'Adres e-mail potwierdzony',
  confirmedText: 'Dziękujemy! Jesteś na liście oczekujących {waitlist}, a Twój adres jest potwierdzony.',
  seeYourPlace: 'Zobacz swoje miejsce w kolejce',
  confirmHeading: 'Potwierdź adres e-mail',
  confirmText:
    'Naciśnij przycisk, aby potwierdzić, że ten adres zapisano na listę oczekujących {waitlist}. Jeśli to nie Ty, zamknij tę stronę: nic się nie stanie.',
  confirmButton: 'Potwierdzam adres e-mail',
  badLinkTitle: 'Nieprawidłowy link',
  badLinkHeading: 'Ten link jest nieprawidłowy',
  badLinkText:
    'Sprawdź, czy otwarto cały link z e-maila z potwierdzeniem, albo zapisz się ponownie, aby dostać nowy.',
  tooManyHeading: 'Zbyt wiele prób',
  tooManyText:
    'Z tego połączenia było zbyt wiele prób potwierdzenia. Odczekaj minutę i naciśnij przycisk ponownie.',

  unsubscribeTitle: 'Wypisz się z e-maili {waitlist}',
  unsubscribedHeading: 'Nie będziesz już dostawać tych e-maili',
  unsubscribedText:
    'Lista oczekujących {waitlist} nie będzie już wysyłać Ci e-maili powitalnych ani e-maili o poleceniach. Zachowujesz miejsce w kolejce i nadal dostaniesz wiadomość, gdy otrzymasz dostęp.',
  unsubscribeHeading: 'Wypisz się z e-maili',
  unsubscribeText:
    'Naciśnij przycisk, aby nie dostawać już e-maili powitalnych ani e-maili o poleceniach z listy oczekujących {waitlist}. Zachowujesz miejsce w kolejce i nadal dostaniesz wiadomość, gdy otrzymasz dostęp.',
  unsubscribeButton: 'Wypisz mnie',

  confirmMailSubject: 'Potwierdź adres e-mail dla {waitlist}',
  confirmMailIntro:
    'Ten adres e-mail został zapisany na listę oczekujących {waitlist} – mamy nadzieję, że przez Ciebie.',
  confirmMailOpen: 'Aby go potwierdzić, otwórz ten link i naciśnij przycisk:',
  confirmMailOr: 'Lub otwórz ten link:',
  confirmMailKeep:
    'Twoje miejsce w kolejce i tak pozostaje; potwierdzenie zalicza się osobie, która Cię poleciła.',
  confirmMailIgnore:
    'Jeśli to nie Ty, zignoruj tę wiadomość: nic więcej nie wyślemy, chyba że ktoś znów zapisze ten adres.',

  stopEmails: 'Aby nie dostawać tych e-maili: {link}',

  welcomeSubject: 'Jesteś na liście oczekujących {{waitlist_name}}',
  welcomeBody:
    'Dziękujemy za zapis do {{waitlist_name}}. Twój numer w kolejce: {{position}}.\n\nNapiszemy ponownie, gdy przyjdzie Twoja kolej.',
  referralSubject: 'Ktoś dołączył do {{waitlist_name}} dzięki Tobie',
  referralBody:
    'Dziękujemy za polecanie {{waitlist_name}}. Liczba osób, które dotąd dołączyły dzięki Tobie: {{referral_count}}. Twój numer w kolejce to teraz {{position}}.',
  admittedSubject: 'Masz już dostęp: {{waitlist_name}}',
  admittedBody: 'Dobra wiadomość: {{waitlist_name}} przyznaje Ci dostęp. Zacznij tutaj: {{access_url}}',
};
