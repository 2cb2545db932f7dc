/**
 * What an electronic signature costs a reviewer's save (docs/decisions.md "Electronic signatures"): on one
 * stack, the approval of an access-change request through the stack's API (SIGNATURES=off) beside the same
 * approval through a second API process on the same services with SIGNATURES=on, which first asks for the
 * ticket (the password again: one bind) and then saves with it. Interleaved, measured in the same run.
 * Target: the signed save (ticket + save) at most 1.2 × the unsigned save plus one ticket call (the password
 * check) at the median. Alone:
 *
 *   cd tests && npx tsx --conditions=development bench/signatures.ts
 */
import { randomUUID } from 'node:crypto';
import { DEMO_ACCOUNTS } from '@portal/db/seed';
import { SIGNATURE_HEADER, SIGNATURE_TICKET_PATH } from '@portal/contract';
import { startExtraApi } from '../support/extra-api';
import type { ThrowawayStack } from '../support/throwaway-stack';
import { runAlone, signIn, timedCall as call } from './stack';
import { dataManagerBlock } from './role-block';
import { median } from './timing';

const CYCLES = Number(process.env.BENCH_SIGNATURE_CYCLES ?? 12);

/** The largest accepted ratio of the signed save's median to the unsigned one's plus the ticket's. */
export const SIGNATURE_TARGET = { maxRatio: 1.2 };

export interface SignatureFigures {
  saves: number;
  unsignedSaveP50Ms: number;
  ticketP50Ms: number;
  signedSaveP50Ms: number;
  signedTotalP50Ms: number;
  /** signedTotalP50Ms / (unsignedSaveP50Ms + ticketP50Ms). */
  ratio: number;
}

/** A second API process on the stack's services with SIGNATURES=on. @returns its URL and how to stop it. */
const signingApi = (stack: ThrowawayStack) =>
  startExtraApi({
    portalEnv: stack.portalEnv,
    hostname: new URL(stack.urls.portal).hostname,
    // As on the bench stack's API: staff sign in with the password alone (stack.ts).
    overrides: { SECOND_FACTOR_REQUIRED_PERMISSIONS: '', SIGNATURES: 'on' },
  });

/** Measures the figures above on the bench stack `stack`. */
export async function measureSignatures(stack: ThrowawayStack): Promise<SignatureFigures> {
  const plainBase = stack.urls.portal;
  const signing = await signingApi(stack);
  try {
    const user = await signIn(plainBase, 'user');
    const plainReviewer = await signIn(plainBase, 'reviewer');
    const signingReviewer = await signIn(signing.url, 'reviewer');
    const reviewerPassword = DEMO_ACCOUNTS.find((a) => a.username === 'reviewer')!.password;
    const profile = (await call(plainBase, user, 'GET', '/rest/secure/user_profile')).json as { portalUserId: number };
    const block = await dataManagerBlock(plainBase);
    const fileInProgress = async (i: number): Promise<number> => {
      const filed = await call(plainBase, user, 'POST', '/rest/secure/user_access_mod_request', {
        portalUserId: profile.portalUserId,
        requestType: 'NEW',
        accessControls: [block],
        requesterComments: `bench signatures ${i}`,
      });
      const id = filed.json.id as number;
      await call(plainBase, plainReviewer, 'PUT', REVIEW_PATH, approval(id, 0, 'IN_PROGRESS'));
      return id;
    };

    const unsigned: number[] = [];
    const tickets: number[] = [];
    const signedSaves: number[] = [];
    const signedTotals: number[] = [];
    let username: string | undefined = 'reviewer';
    for (let i = 0; i < CYCLES; i++) {
      // Approval grants nothing by itself (001 §2.8), so the user may ask for the same role every cycle.
      const a = await fileInProgress(2 * i);
      unsigned.push((await call(plainBase, plainReviewer, 'PUT', REVIEW_PATH, approval(a, 1, 'APPROVED'))).ms);

      const b = await fileInProgress(2 * i + 1);
      const body = approval(b, 1, 'APPROVED');
      const ticket = await call(signing.url, signingReviewer, 'POST', SIGNATURE_TICKET_PATH, {
        action: 'REQUEST_APPROVAL',
        meaning: 'Approved',
        ...(username ? { username } : {}),
        password: reviewerPassword,
        decision: { method: 'PUT', path: REVIEW_PATH, body },
      });
      username = undefined;
      const saved = await call(signing.url, signingReviewer, 'PUT', REVIEW_PATH, body, {
        [SIGNATURE_HEADER]: ticket.json.ticket as string,
      });
      tickets.push(ticket.ms);
      signedSaves.push(saved.ms);
      signedTotals.push(ticket.ms + saved.ms);
    }
    const unsignedSaveP50Ms = median(unsigned);
    const ticketP50Ms = median(tickets);
    const signedTotalP50Ms = median(signedTotals);
    return {
      saves: CYCLES,
      unsignedSaveP50Ms,
      ticketP50Ms,
      signedSaveP50Ms: median(signedSaves),
      signedTotalP50Ms,
      ratio: signedTotalP50Ms / (unsignedSaveP50Ms + ticketP50Ms),
    };
  } finally {
    await signing.stop();
  }
}

const REVIEW_PATH = '/rest/secure/user_management/review_access_change_request';

const approval = (id: number, versionno: number, requestStatus: string) => ({
  userAccessModificationRequest: { id, versionno, requestStatus, reviewerComments: 'bench', sysaidTicket: '' },
  attemptKey: randomUUID(),
});

/** The target missed, in words (empty when met). */
export const signaturesMissed = (f: SignatureFigures): string[] =>
  f.ratio > SIGNATURE_TARGET.maxRatio
    ? [`signed save p50 ${f.signedTotalP50Ms.toFixed(0)} ms > ${SIGNATURE_TARGET.maxRatio} × (save + ticket)`]
    : [];

runAlone(import.meta.url, 'bench-signatures', measureSignatures, (f) => ({
  ...f,
  target: `signed (ticket + save) ≤ ${SIGNATURE_TARGET.maxRatio} × (unsigned save + ticket) at p50`,
  missed: signaturesMissed(f),
}));
