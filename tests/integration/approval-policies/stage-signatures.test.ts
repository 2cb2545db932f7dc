/**
 * Stage decisions signed with their stage's meaning (docs/decisions.md "Approval policies", "Electronic
 * signatures"; 21 CFR Part 11 §11.50) with SIGNATURES=on, through the API's routes and a real worker: a stage
 * decision is signed REQUEST_STAGE_APPROVAL / REQUEST_STAGE_REJECTION meaning 'Approved – stage n' /
 * 'Rejected – stage n'. A ticket of the review's generic action, or meaning another stage, is refused
 * SIGNATURE_INVALID and left unused; the right one is taken by the stage commit, which writes the Signature
 * (the signer, the meaning, the request's version the decision made), shown on the request's view.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SIGNATURE_ERRORS,
  SIGNATURE_HEADER,
  SIGNATURE_TICKET_PATH,
  type SignatureAction,
  type StageDecisionBody,
} from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { type Session, type TestApi, caller, startApi, startWorker } from '../harness';
import { type TemporalTestEnv, fileAccessRequest, uniqueQueue, until, useLifecycleStack } from '../lifecycle/support';
import { signedInRig, stage } from '../approval/support';

const ONE = (id: number) => `/rest/secure/user_access_mod_request/${id}`;
const taskQueue = uniqueQueue('approval-stage-signatures');

let env: TemporalTestEnv;
let api: TestApi;
let prisma: PrismaClient;
let call: ReturnType<typeof caller>;
let stopWorker: () => Promise<void>;

useLifecycleStack((e) => {
  env = e;
});

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue, SIGNATURES: 'on' });
  prisma = api.prisma;
  call = caller(api.app);
  stopWorker = await startWorker(api, taskQueue);
});

afterAll(async () => {
  await stopWorker?.();
  await api?.close();
});

/** A ticket for POSTing `body` to request `id`'s stage route, signed by `who` as `action` meaning `meaning`. */
async function ticket(
  who: { session: Session; username: string; password: string },
  id: number,
  body: StageDecisionBody,
  action: SignatureAction,
  meaning: string,
): Promise<string> {
  const res = await call(who.session, 'POST', SIGNATURE_TICKET_PATH, {
    action,
    meaning,
    username: who.username,
    password: who.password,
    decision: { method: 'POST', path: `${ONE(id)}/stage`, body },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().ticket as string;
}

const signed = (s: Session, id: number, body: StageDecisionBody, token?: string) =>
  call(s, 'POST', `${ONE(id)}/stage`, body, token ? { headers: { [SIGNATURE_HEADER]: token } } : {});

describe('stage decisions signed with the stage meaning (SIGNATURES=on)', () => {
  it("signs stage 1's approval 'Approved – stage 1' and stage 2's rejection 'Rejected – stage 2'", async () => {
    const rig = await signedInRig(api, [stage('LAO_STAFF', 5), stage('STUDY_APPROVERS', 3)]);
    const filed = await fileAccessRequest(env, prisma, taskQueue, { block: rig.block });
    await until(
      async () => (await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).approvalStage === 1,
      'stage 1 opened',
    );
    const lao = { session: rig.sessions.laoStaff, username: rig.laoStaff.username, password: rig.passwords.laoStaff };
    const approve: StageDecisionBody = { stage: 1, decision: 'APPROVED', comment: 'Site confirmed', versionno: 0 };

    expect((await signed(lao.session, filed.id, approve)).json()).toEqual({
      fieldErrors: {},
      globalErrors: [SIGNATURE_ERRORS.required],
    });
    // The review's generic approval, and a stage approval meaning another stage, do not sign this decision.
    for (const [action, meaning] of [
      ['REQUEST_APPROVAL', 'Approved'],
      ['REQUEST_STAGE_APPROVAL', 'Approved – stage 2'],
    ] as const) {
      const wrong = await signed(lao.session, filed.id, approve, await ticket(lao, filed.id, approve, action, meaning));
      expect([meaning, wrong.statusCode, wrong.json().globalErrors]).toEqual([
        meaning,
        422,
        [SIGNATURE_ERRORS.invalid],
      ]);
    }
    // A rejection's meaning is refused for an approval (the action is REQUEST_STAGE_REJECTION's).
    const refusedMeaning = await call(lao.session, 'POST', SIGNATURE_TICKET_PATH, {
      action: 'REQUEST_STAGE_APPROVAL',
      meaning: 'Rejected – stage 1',
      username: lao.username,
      password: lao.password,
      decision: { method: 'POST', path: `${ONE(filed.id)}/stage`, body: approve },
    });
    expect(refusedMeaning.statusCode).toBe(422);

    const good = await ticket(lao, filed.id, approve, 'REQUEST_STAGE_APPROVAL', 'Approved – stage 1');
    const first = await signed(lao.session, filed.id, approve, good);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ versionno: 1, approval: { currentStage: 2 } });
    expect(first.json().signatures).toMatchObject([
      { meaning: 'Approved – stage 1', action: 'REQUEST_STAGE_APPROVAL', signerUsername: lao.username, valid: true },
    ]);

    const approver = {
      session: rig.sessions.studyApprover,
      username: rig.studyApprover.username,
      password: rig.passwords.studyApprover,
    };
    const reject: StageDecisionBody = { stage: 2, decision: 'REJECTED', comment: 'Study closed', versionno: 1 };
    const token = await ticket(approver, filed.id, reject, 'REQUEST_STAGE_REJECTION', 'Rejected – stage 2');
    const second = await signed(approver.session, filed.id, reject, token);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({ requestStatus: 'REJECTED', versionno: 2 });

    const rows = await prisma.signature.findMany({
      where: { entityType: 'AccessModRequest', entityId: String(filed.id) },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => [r.action, r.meaning, r.signerUsername, r.entityVersion])).toEqual([
      ['REQUEST_STAGE_APPROVAL', 'Approved – stage 1', rig.laoStaff.username, 1],
      ['REQUEST_STAGE_REJECTION', 'Rejected – stage 2', rig.studyApprover.username, 2],
    ]);
    // The refused tickets were never taken: only the two that signed are used.
    const used = await prisma.signatureTicket.count({
      where: { signerUserId: { in: [rig.laoStaff.userId, rig.studyApprover.userId] }, usedAt: { not: null } },
    });
    expect(used).toBe(2);
  });
});
