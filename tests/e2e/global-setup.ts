/**
 * Starts the whole product for the journeys in a throw-away data folder on free ports, seeded with the
 * demo accounts, and stops it afterwards. Writes the stack's URLs to process.env for the test workers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startThrowawayStack } from '../support/throwaway-stack';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const logFile = path.join(import.meta.dirname, '..', 'artifacts', 'e2e-stack.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.createWriteStream(logFile);
  // Staff must use a second factor in the product (issue 37); the journeys' staff sign in with the password
  // alone: on the stack's API and on every API a journey starts itself (support.ts startExtraApi inherits
  // process.env). The forced-enrolment journey starts an API that names the permissions.
  process.env.SECOND_FACTOR_REQUIRED_PERMISSIONS ??= '';
  const stack = await startThrowawayStack('e2e', {
    env: {
      ...process.env,
      SEED_GENERATED_USERS: process.env.SEED_GENERATED_USERS ?? '300',
      // The journeys count the requests they file; the demo's pending requests are tested on their own.
      SEED_PENDING_REQUESTS: process.env.SEED_PENDING_REQUESTS ?? 'false',
    },
    log: (line) => log.write(`${line}\n`),
  });
  process.env.PORTAL_URL = stack.urls.portal;
  process.env.MAIL_API_URL = stack.urls.mailApi ?? '';
  process.env.TEMPORAL_UI_URL = stack.urls.temporalUi ?? '';
  // The demo laboratory system's SCIM target and its bearer token (issue 41), for journeys that read its /Users.
  process.env.DEMO_SCIM_URL = stack.urls.demoScim ?? '';
  process.env.DEMO_SCIM_TOKEN = stack.demoScimToken ?? '';
  // The services' settings, for journeys that start a second API on them (session timeout in seconds).
  process.env.E2E_PORTAL_ENV = JSON.stringify(stack.portalEnv);
  return async () => {
    await stack.close();
    log.end();
  };
}
