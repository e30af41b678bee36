// A tenant's backend talking to the waitlist service. Against the README's demo server:
//
//   WAITLIST_API_KEY=wlk_live_… WAITLIST_ID=wl_… node examples/node-backend/index.mjs
//
// (the demo prints both when it starts on an empty database).
import { RateLimitError, WaitlistClient, WaitlistError } from '@waitlistkit/client';

const apiKey = process.env.WAITLIST_API_KEY;
const waitlistId = process.env.WAITLIST_ID;
if (!apiKey || !waitlistId) {
  console.error('Set WAITLIST_API_KEY and WAITLIST_ID (the demo server prints both).');
  process.exit(2);
}

const client = new WaitlistClient({
  apiKey,
  baseUrl: process.env.WAITLIST_BASE_URL ?? 'http://127.0.0.1:8787',
});

try {
  // A server-side signup, as a backend does after its own sign-up form.
  const signup = await client.subscribers.create(waitlistId, { email: 'backend-example@example.com' });
  console.log(`Signed up; referral code ${signup.referral_code || '(referrals off)'}.`);

  const page = await client.subscribers.list(waitlistId, { limit: 10 });
  console.log(`Page ${page.page} of the waitlist (${page.total} subscribers):`);
  for (const s of page.items) {
    console.log(`  #${String(s.position).padEnd(4)} ${s.email.padEnd(32)} referrals: ${s.referral_count}`);
  }
  console.log(`Requests left this minute: ${page.rateLimit.remaining}/${page.rateLimit.limit}`);
} catch (error) {
  if (error instanceof RateLimitError) console.error(`Rate limited; retry in ${error.retryAfter} s.`);
  else if (error instanceof WaitlistError) console.error(`${error.name}: ${error.message}`);
  else throw error;
  process.exitCode = 1;
}
