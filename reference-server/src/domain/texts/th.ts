import type { PageTexts } from './en.js';

// คุณ, without ครับ/ค่ะ (which say whether the writer is a man or a woman); a space ends a
// sentence, as Thai writes.
export const th: PageTexts = {
  statusTitle: 'ลำดับของคุณใน {waitlist}',
  checkInbox: 'โปรดตรวจสอบกล่องจดหมาย:',
  checkInboxText: 'เราได้ส่งลิงก์สำหรับยืนยันที่อยู่อีเมลให้คุณแล้ว ระหว่างรอ ลำดับของคุณจะยังคงอยู่',
  admittedHeading: 'ถึงคิวของคุณแล้ว',
  admittedText: '{waitlist} เปิดสิทธิ์ให้คุณแล้ว คุณไม่ต้องรออีกต่อไป โปรดรอดูข้อความแนะนำวิธีเริ่มต้นใช้งาน',
  positionOf: { other: 'จากผู้ลงชื่อรอทั้งหมด {count} คน' },
  referralCode: 'รหัสแนะนำของคุณ',
  referrals: 'การแนะนำ',
  referralsJoined: { other: 'มีผู้เข้าร่วมด้วยรหัสของคุณ {count} คน' },
  shareHeading: 'แชร์ลิงก์ของคุณเพื่อเลื่อนลำดับขึ้น',
  shareLabel: 'ลิงก์สำหรับแชร์ของคุณ',
  copyLink: 'คัดลอกลิงก์',
  linkCopied: 'คัดลอกลิงก์แล้ว',
  copyFailed: 'คัดลอกไม่สำเร็จ โปรดเลือกข้อความแล้วคัดลอกเอง',
  notFoundTitle: 'ไม่พบหน้านี้',
  notFoundText: 'ลิงก์สถานะนี้ไม่ถูกต้อง โปรดตรวจสอบว่าคุณคัดลอกลิงก์จากการยืนยันการลงชื่อมาครบถ้วน',

  confirmTitle: 'ยืนยันอีเมลของคุณสำหรับ {waitlist}',
  confirmedHeading: 'ยืนยันอีเมลของคุณแล้ว',
  confirmedText: 'ขอบคุณ คุณอยู่ในรายชื่อรอของ {waitlist} แล้ว และที่อยู่อีเมลของคุณได้รับการยืนยันแล้ว',
  seeYourPlace: 'ดูลำดับของคุณ',
  confirmHeading: 'ยืนยันอีเมลของคุณ',
  confirmText: 'กดปุ่มเพื่อยืนยันว่าที่อยู่นี้ลงชื่อในรายชื่อรอของ {waitlist} หากไม่ใช่คุณ ปิดหน้านี้ได้เลย จะไม่มีอะไรเกิดขึ้น',
  confirmButton: 'ยืนยันอีเมลของฉัน',
  badLinkTitle: 'ลิงก์ไม่ถูกต้อง',
  badLinkHeading: 'ลิงก์นี้ไม่ถูกต้อง',
  badLinkText: 'โปรดตรวจสอบว่าคุณเปิดลิงก์จากอีเมลยืนยันครบถ้วน หรือลงชื่ออีกครั้งเพื่อรับลิงก์ใหม่',
  tooManyHeading: 'พยายามหลายครั้งเกินไป',
  tooManyText: 'มีการพยายามยืนยันจากเครือข่ายนี้บ่อยเกินไป โปรดรอหนึ่งนาทีแล้วกดปุ่มอีกครั้ง',

  unsubscribeTitle: 'ยกเลิกรับอีเมลจาก {waitlist}',
  unsubscribedHeading: 'ยกเลิกการรับอีเมลแล้ว',
  unsubscribedText:
    'รายชื่อรอของ {waitlist} จะไม่ส่งอีเมลต้อนรับหรืออีเมลเกี่ยวกับการแนะนำถึงคุณอีก คุณยังคงมีลำดับเดิม และจะยังได้รับแจ้งเมื่อถึงคิวของคุณ',
  unsubscribeHeading: 'ยกเลิกรับอีเมล',
  unsubscribeText:
    'กดปุ่มเพื่อหยุดรับอีเมลต้อนรับและอีเมลเกี่ยวกับการแนะนำจากรายชื่อรอของ {waitlist} คุณยังคงมีลำดับเดิม และจะยังได้รับแจ้งเมื่อถึงคิวของคุณ',
  unsubscribeButton: 'ยกเลิกรับอีเมล',

  confirmMailSubject: 'ยืนยันอีเมลของคุณสำหรับ {waitlist}',
  confirmMailIntro: 'มีผู้ใช้ที่อยู่อีเมลนี้ลงชื่อในรายชื่อรอของ {waitlist} ซึ่งเราหวังว่าจะเป็นคุณ',
  confirmMailOpen: 'หากต้องการยืนยัน ให้เปิดลิงก์นี้แล้วกดปุ่ม:',
  confirmMailOr: 'หรือเปิดลิงก์นี้:',
  confirmMailKeep: 'ไม่ว่าอย่างไร คุณก็ยังคงมีลำดับเดิม การยืนยันจะนับให้กับผู้ที่แนะนำคุณ',
  confirmMailIgnore: 'หากไม่ใช่คุณ ไม่ต้องทำอะไรกับอีเมลนี้ เราจะไม่ส่งอะไรเพิ่มเติม เว้นแต่มีผู้ลงชื่ออีกครั้ง',

  stopEmails: 'หยุดรับอีเมลเหล่านี้: {link}',

  welcomeSubject: 'คุณอยู่ในรายชื่อรอของ {{waitlist_name}} แล้ว',
  welcomeBody: 'ขอบคุณที่ลงชื่อรอ {{waitlist_name}} ตอนนี้คุณอยู่ลำดับที่ {{position}}\n\nเราจะติดต่อคุณอีกครั้งเมื่อถึงคิวของคุณ',
  referralSubject: 'มีผู้เข้าร่วม {{waitlist_name}} ผ่านคุณ',
  referralBody:
    'ขอบคุณที่แชร์ {{waitlist_name}} จำนวนผู้ที่เข้าร่วมผ่านคุณจนถึงตอนนี้: {{referral_count}} ตอนนี้คุณอยู่ลำดับที่ {{position}}',
  admittedSubject: 'ถึงคิวของคุณแล้ว: {{waitlist_name}}',
  admittedBody: 'ข่าวดี {{waitlist_name}} เปิดสิทธิ์ให้คุณแล้ว เริ่มต้นได้ที่นี่: {{access_url}}',
};
