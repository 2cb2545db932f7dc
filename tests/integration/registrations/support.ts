/**
 * Shared setup of the registration tests: the API on the test stack with a worker that has the directory
 * (the approval's outside effect), a public registration body with the demo reference data, and the
 * ALTCHA captcha solved as the browser's widget solves it (altcha-lib's solver).
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { DirectoryConfig } from '@portal/directory';
import type { PortalActivities } from '@portal/worker';
import { demoRequestParts } from '../fixtures';
import { expect } from 'vitest';
import { type Session, type TestApi, caller, startWorker } from '../harness';

/**
 * Runs a worker with the directory (or `directory` instead) on `taskQueue`; `overrides` replace single
 * activities (harness startWorker). @returns stop.
 */
export function startRegistrationWorker(
  api: TestApi,
  taskQueue: string,
  opts: { overrides?: Partial<PortalActivities>; smtpUrl?: string; directory?: DirectoryConfig } = {},
): Promise<() => Promise<void>> {
  return startWorker(api, taskQueue, { ...opts, directory: opts.directory ?? api.directory });
}

let counter = 0;
/** A registration body for a new person (unique email and name per call). */
export async function registrationBody(api: TestApi, over: Record<string, unknown> = {}) {
  const { block } = await demoRequestParts(api.prisma);
  const tag = `${Date.now().toString(36)}${(counter++).toString(36)}`;
  return {
    firstName: 'Reg',
    lastName: `Tester${tag}`,
    jobTitle: 'Coordinator',
    organizationName: 'Clinic',
    phoneNumber: '555-0100',
    email: `reg.${tag}@example.org`,
    accessControls: [block],
    requesterComments: 'Please add me',
    ...over,
  };
}

/** Fetches a challenge from the API and solves it: the value the widget puts into g-recaptcha-response. */
export async function solvedCaptcha(api: TestApi): Promise<string> {
  const res = await api.app.inject({ method: 'GET', url: '/rest/public/captcha/challenge' });
  const challenge = res.json();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** Files a registration by proxy as `session` (POST /rest/secure/user_registration, no captcha); expects 200. */
export async function fileByProxy(api: TestApi, session: Session) {
  const res = await caller(api.app)(session, 'POST', '/rest/secure/user_registration', await registrationBody(api));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; email: string; workflowId: string };
}
