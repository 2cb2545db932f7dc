/**
 * `npm run demo:code`: the current code of the demo authenticator app (README "Demo accounts"), which the demo
 * seed enrols for the staff personas, for a reader without an authenticator app at hand.
 */
import { generate } from 'otplib';
import { DEMO_TOTP_SECRET } from '@portal/db/seed';

const code = await generate({ secret: DEMO_TOTP_SECRET });
const left = 30 - (Math.floor(Date.now() / 1000) % 30);
console.log(`${code}  (the demo authenticator app's code, for another ${left} s)`);
