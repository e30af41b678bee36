// A custom client: your own form, or a Node script, using the widget's engine without its UI.
//   WAITLIST_ID=wl_… EMAIL=you@example.com [WAITLIST_BASE_URL=http://127.0.0.1:8787] \
//   [ORIGIN=http://127.0.0.1:8787] node examples/custom-client/index.mjs
// Outside a browser the Origin header is ours to send: it must be on the waitlist's allowlist
// (the demo allowlists its own address).
import { subscribe, WaitlistError } from '@waitlistkit/widget';

const baseUrl = process.env.WAITLIST_BASE_URL ?? 'http://127.0.0.1:8787';
const waitlistId = process.env.WAITLIST_ID;
const email = process.env.EMAIL;
if (!waitlistId || !email) {
  console.error('Set WAITLIST_ID and EMAIL.');
  process.exit(2);
}

try {
  const started = performance.now();
  const signup = await subscribe({
    baseUrl,
    waitlistId,
    email,
    origin: process.env.ORIGIN ?? new URL(baseUrl).origin,
    onProgress(progress) {
      if (progress.phase === 'challenge' && progress.remainingMs > 0) {
        console.log(`challenge: waiting ${progress.remainingMs} ms`);
      } else if (progress.phase === 'pow' && progress.hashes === 0) {
        console.log(`proof of work: difficulty ${progress.difficulty}, about ${progress.expected} hashes`);
      }
    },
  });
  console.log(`accepted in ${Math.round(performance.now() - started)} ms`);
  console.log(`referral code: ${signup.referral_code || '(referrals off)'}`);
  if (signup.status_url) console.log(`status page: ${signup.status_url}`);
} catch (error) {
  if (!(error instanceof WaitlistError)) throw error;
  console.error(`${error.name} (${error.code}): ${error.message}`);
  process.exitCode = 1;
}
