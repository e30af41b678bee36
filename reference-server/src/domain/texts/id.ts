import type { PageTexts } from './en.js';

// "Anda", the polite form every Indonesian service can use.
export const id: PageTexts = {
  statusTitle: 'Posisi Anda di daftar tunggu {waitlist}',
  checkInbox: 'Periksa kotak masuk Anda:',
  checkInboxText:
    'kami telah mengirimkan tautan untuk mengonfirmasi alamat email Anda. Posisi Anda tetap aman selama menunggu.',
  admittedHeading: 'Giliran Anda tiba',
  admittedText:
    '{waitlist} telah memberi Anda akses: Anda tidak perlu menunggu lagi. Nantikan pesan mereka tentang cara memulai.',
  positionOf: { other: 'dari {count} orang di daftar tunggu' },
  referralCode: 'Kode referal Anda',
  referrals: 'Referal',
  referralsJoined: { other: '{count} orang telah bergabung dengan kode Anda' },
  shareHeading: 'Bagikan tautan Anda untuk naik antrean',
  shareLabel: 'Tautan berbagi Anda',
  copyLink: 'Salin tautan',
  linkCopied: 'Tautan disalin.',
  copyFailed: 'Gagal menyalin: pilih teksnya lalu salin secara manual.',
  notFoundTitle: 'Halaman tidak ditemukan',
  notFoundText:
    'Tautan status ini tidak valid. Pastikan Anda menyalin seluruh tautan dari konfirmasi pendaftaran Anda.',

  confirmTitle: 'Konfirmasi email Anda untuk {waitlist}',
  confirmedHeading: 'Email Anda telah dikonfirmasi',
  confirmedText:
    'Terima kasih! Anda sudah masuk daftar tunggu {waitlist}, dan alamat Anda telah dikonfirmasi.',
  seeYourPlace: 'Lihat posisi Anda di antrean',
  confirmHeading: 'Konfirmasi email Anda',
  confirmText:
    'Tekan tombol untuk mengonfirmasi bahwa alamat ini mendaftar ke daftar tunggu {waitlist}. Jika itu bukan Anda, tutup halaman ini: tidak akan terjadi apa-apa.',
  confirmButton: 'Konfirmasi email saya',
  badLinkTitle: 'Tautan tidak valid',
  badLinkHeading: 'Tautan ini tidak valid',
  badLinkText:
    'Pastikan Anda membuka seluruh tautan dari email konfirmasi, atau daftar lagi untuk mendapatkan tautan baru.',
  tooManyHeading: 'Terlalu banyak percobaan',
  tooManyText:
    'Terlalu banyak percobaan konfirmasi dari koneksi ini. Tunggu satu menit, lalu tekan tombolnya lagi.',

  unsubscribeTitle: 'Berhenti menerima email {waitlist}',
  unsubscribedHeading: 'Anda telah berhenti berlangganan',
  unsubscribedText:
    'Daftar tunggu {waitlist} tidak akan mengirimi Anda email sambutan atau referal lagi. Posisi Anda di antrean tetap, dan Anda tetap akan diberi tahu saat giliran Anda tiba.',
  unsubscribeHeading: 'Berhenti berlangganan',
  unsubscribeText:
    'Tekan tombol untuk menghentikan email sambutan dan referal dari daftar tunggu {waitlist}. Posisi Anda di antrean tetap, dan Anda tetap akan diberi tahu saat giliran Anda tiba.',
  unsubscribeButton: 'Berhenti berlangganan',

  confirmMailSubject: 'Konfirmasi email Anda untuk {waitlist}',
  confirmMailIntro:
    'Seseorang, semoga Anda sendiri, telah mendaftar ke daftar tunggu {waitlist} dengan alamat email ini.',
  confirmMailOpen: 'Untuk mengonfirmasi, buka tautan ini dan tekan tombolnya:',
  confirmMailOr: 'Atau buka tautan ini:',
  confirmMailKeep:
    'Posisi Anda di antrean tetap aman apa pun pilihan Anda; dengan mengonfirmasi, Anda terhitung untuk orang yang mengundang Anda.',
  confirmMailIgnore:
    'Jika itu bukan Anda, abaikan email ini: kami tidak akan mengirim apa pun lagi kecuali ada yang mendaftar lagi.',

  stopEmails: 'Untuk berhenti menerima email ini: {link}',

  welcomeSubject: 'Anda masuk daftar tunggu {{waitlist_name}}',
  welcomeBody:
    'Terima kasih telah mendaftar ke {{waitlist_name}}. Anda berada di urutan ke-{{position}}.\n\nKami akan menghubungi Anda lagi saat giliran Anda tiba.',
  referralSubject: 'Seseorang bergabung dengan {{waitlist_name}} melalui Anda',
  referralBody:
    'Terima kasih telah membagikan {{waitlist_name}}. Jumlah orang yang telah bergabung melalui Anda sejauh ini: {{referral_count}}. Sekarang Anda berada di urutan ke-{{position}}.',
  admittedSubject: 'Giliran Anda tiba: {{waitlist_name}}',
  admittedBody: 'Kabar baik: {{waitlist_name}} telah memberi Anda akses. Mulai di sini: {{access_url}}',
};
