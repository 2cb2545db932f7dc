/**
 * Electronic signatures on request decisions (docs/decisions.md "Electronic signatures"; 21 CFR Part 11 §11.50,
 * §11.70, §11.200) against real PostgreSQL, OpenLDAP and Temporal. With SIGNATURES=on a resolution is refused
 * without a ticket (nothing changed); a ticket, made with the password again (the username at the session's
 * first signature), signs exactly one call: used again, or made for another body, it is refused; the signature
 * row holds the printed name, meaning and digest, and the views show it valid until the record is edited in the
 * database (views, history list, report columns); no password reaches the workflow's history. A registration's
 * denial and approval are signed the same way; an unresolved save changing portal roles is REQUEST_SAVE, one of
 * comments alone is not signed; a signed attempt's retry is answered its outcome; the commit refuses a ticket
 * used since the route's check. With SIGNATURES=off the same approval needs no ticket and the views and the
 * report carry no signatures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SIGNATURE_ERRORS,
  SIGNATURE_HEADER,
  SIGNATURE_TEXTS,
  SIGNATURE_TICKET_PATH,
  type SignatureAction,
} from '@portal/contract';
import { ticketHash } from '@portal/db';
import { createActivities } from '@portal/worker';
import { REVIEW_FAILURES } from '@portal/workflows';
import { createTestUser } from '../auth-helpers';
import { demoRequestParts, roleBlockOf, testMailSettings } from '../fixtures';
import { type Session, type TestApi, caller, demoPassword, signIn, startApi, startWorker } from '../harness';
import { maybeRecordHistory, uniqueQueue } from '../lifecycle/support';
import { registrationBody } from '../registrations/support';

const REVIEW = '/rest/secure/user_management/review_access_change_request';
const DENY = '/rest/secure/user_registration_action/deny';
const APPROVE = '/rest/secure/user_registration_action/approve';
const onQueue = uniqueQueue('signatures-on');
const offQueue = uniqueQueue('signatures-off');

let on: TestApi;
let off: TestApi;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  on = await startApi({ TEMPORAL_TASK_QUEUE: onQueue, SIGNATURES: 'on' });
  off = await startApi({ TEMPORAL_TASK_QUEUE: offQueue });
  stops.push(await startWorker(on, onQueue, { directory: on.directory }), await startWorker(off, offQueue));
});
afterAll(async () => {
  for (const stop of stops) await stop();
  await on?.close();
  await off?.close();
});

/** Files a NEW access request for a fresh user through `api`. @returns its id. */
async function filedRequest(api: TestApi, tag: string): Promise<number> {
  const u = await createTestUser(api, tag);
  const session = await signIn(api.app, u.username, u.password);
  const { block } = await demoRequestParts(api.prisma);
  const filed = await caller(api.app)(session, 'POST', '/rest/secure/user_access_mod_request', {
    portalUserId: u.user.id,
    requestType: 'NEW',
    accessControls: [block],
  });
  expect(filed.statusCode, filed.body).toBe(200);
  return filed.json().id as number;
}

const approval = (id: number, reviewerComments = 'signed approval') => ({
  userAccessModificationRequest: { id, versionno: 0, requestStatus: 'APPROVED', reviewerComments, sysaidTicket: '' },
});

/** A workflow history as text: its JSON with every payload's data decoded (payloads are base64 in it). */
function historyText(history: unknown): string {
  const decoded: string[] = [];
  const walk = (v: unknown, key?: string): void => {
    if (v instanceof Uint8Array) decoded.push(Buffer.from(v).toString('utf8'));
    else if (typeof v === 'string' && key === 'data') decoded.push(Buffer.from(v, 'base64').toString('utf8'));
    else if (Array.isArray(v)) v.forEach((e) => walk(e));
    else if (v && typeof v === 'object') Object.entries(v).forEach(([k, e]) => walk(e, k));
  };
  walk(history);
  return `${JSON.stringify(history)}\n${decoded.join('\n')}`;
}

/** POST the ticket call for `body` sent as PUT `path`. */
const ticketCall = (
  s: Session,
  action: SignatureAction,
  meaning: string,
  path: string,
  body: unknown,
  extra: { password?: string; username?: string } = {},
) =>
  caller(on.app)(s, 'POST', SIGNATURE_TICKET_PATH, {
    action,
    meaning,
    password: extra.password ?? demoPassword('reviewer'),
    ...(extra.username === undefined ? {} : { username: extra.username }),
    decision: { method: 'PUT', path, body },
  });

describe('signatures on (SIGNATURES=on)', () => {
  let reviewer: Session;
  let call: ReturnType<typeof caller>;
  beforeAll(async () => {
    call = caller(on.app);
    reviewer = await signIn(on.app, 'reviewer');
  });

  it('refuses, signs, binds and verifies an access-change approval', async () => {
    const id = await filedRequest(on, 'sigac');
    const body = approval(id);

    const unsigned = await call(reviewer, 'PUT', REVIEW, body);
    expect(unsigned.statusCode, unsigned.body).toBe(422);
    expect(unsigned.json().globalErrors).toEqual([SIGNATURE_ERRORS.required]);
    const untouched = await on.prisma.accessModRequest.findUniqueOrThrow({ where: { id } });
    expect([untouched.requestStatus, untouched.versionno]).toEqual(['NEW', 0]);

    // The session's first signature needs the username.
    const noUsername = await ticketCall(reviewer, 'REQUEST_APPROVAL', 'Approved', REVIEW, body);
    expect(noUsername.statusCode, noUsername.body).toBe(422);
    expect(noUsername.json().fieldErrors.username).toEqual([SIGNATURE_TEXTS.usernameRequired]);

    // A wrong password: refused with the clear text, and no ticket is made.
    const signerId = (await on.prisma.portalUser.findUniqueOrThrow({ where: { username: 'reviewer' } })).id;
    const ticketsBefore = await on.prisma.signatureTicket.count({ where: { signerUserId: signerId } });
    const wrong = await ticketCall(reviewer, 'REQUEST_APPROVAL', 'Approved', REVIEW, body, {
      username: 'reviewer',
      password: 'Not-the-password-1!',
    });
    expect(wrong.statusCode, wrong.body).toBe(422);
    expect(wrong.json().fieldErrors.password).toEqual([SIGNATURE_TEXTS.passwordWrong]);
    expect(await on.prisma.signatureTicket.count({ where: { signerUserId: signerId } })).toBe(ticketsBefore);

    // A ticket made for another body (other comments) does not sign this one.
    const other = await ticketCall(reviewer, 'REQUEST_APPROVAL', 'Approved', REVIEW, approval(id, 'other'), {
      username: 'reviewer',
    });
    expect(other.statusCode, other.body).toBe(200);
    const mismatched = await call(reviewer, 'PUT', REVIEW, body, {
      headers: { [SIGNATURE_HEADER]: other.json().ticket },
    });
    expect(mismatched.statusCode, mismatched.body).toBe(422);
    expect(mismatched.json().globalErrors).toEqual([SIGNATURE_ERRORS.invalid]);

    // The right ticket: approved, and the signature is written with it.
    const ticket = await ticketCall(reviewer, 'REQUEST_APPROVAL', 'Approved', REVIEW, body, { username: 'reviewer' });
    expect(ticket.statusCode, ticket.body).toBe(200);
    const signed = await call(reviewer, 'PUT', REVIEW, body, { headers: { [SIGNATURE_HEADER]: ticket.json().ticket } });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().requestStatus).toBe('APPROVED');
    const row = await on.prisma.signature.findFirstOrThrow({
      where: { entityType: 'AccessModRequest', entityId: String(id) },
    });
    const reviewerUser = await on.prisma.portalUser.findUniqueOrThrow({ where: { id: signerId } });
    expect(row).toMatchObject({
      signerUserId: signerId,
      signerUsername: 'reviewer',
      signerName: `${reviewerUser.firstName} ${reviewerUser.lastName}`,
      meaning: 'Approved',
      action: 'REQUEST_APPROVAL',
      method: 'PASSWORD',
      entityVersion: 1,
    });
    expect(row.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(row.content).toMatchObject({ requestId: id, version: 1, status: 'APPROVED' });
    expect(
      await on.prisma.auditEvent.count({
        where: { action: 'SIGNATURE', entityType: row.entityType, entityId: String(id) },
      }),
    ).toBe(1);

    const view = await call(reviewer, 'GET', `/rest/secure/user_access_mod_request/${id}`);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().signatures).toEqual([
      expect.objectContaining({ signerUsername: 'reviewer', meaning: 'Approved', valid: true }),
    ]);
    const subjectId = (await on.prisma.accessModRequest.findUniqueOrThrow({ where: { id } })).subjectUserId;
    const history = await call(reviewer, 'GET', `/rest/secure/user_access_mod_request/user/${subjectId}?size=1000000`);
    expect(history.statusCode, history.body).toBe(200);
    const listed = (history.json().content as Array<{ id: number; signatures?: Array<{ valid: boolean }> }>).find(
      (r) => r.id === id,
    );
    expect(listed?.signatures?.map((s) => s.valid)).toEqual([true]);

    // The access-modification report names the signature in its last four columns.
    const report = await call(reviewer, 'GET', '/rest/secure/user_access_mod_request/report');
    expect(report.statusCode, report.body).toBe(200);
    const lines = report.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toMatch(/,Signed By,Signed At,Meaning,Signature Valid$/);
    const line = lines.find((l) => l.startsWith(`${id},`));
    expect(line).toContain(`,${row.signerName},${row.signedAt.toISOString()},Approved,Yes`);

    // The same ticket again, for another request's save: refused, nothing changed.
    const second = await filedRequest(on, 'sigac2');
    const reused = await call(reviewer, 'PUT', REVIEW, approval(second), {
      headers: { [SIGNATURE_HEADER]: ticket.json().ticket },
    });
    expect(reused.statusCode, reused.body).toBe(422);
    expect(reused.json().globalErrors).toEqual([SIGNATURE_ERRORS.invalid]);
    expect((await on.prisma.accessModRequest.findUniqueOrThrow({ where: { id: second } })).requestStatus).toBe('NEW');

    // No password in the workflow's history (recorded for the replay test: a signed save and its refusals).
    const handle = on.deps.temporal.workflow.getHandle(`access-change-${id}`);
    await handle.result();
    await maybeRecordHistory({ client: on.deps.temporal }, handle.workflowId, 'access-change', 'approved-signed');
    const events = await handle.fetchHistory();
    const text = historyText(events);
    expect(text).toContain(`"ticketId":"${row.ticketId}"`);
    expect(text).not.toContain(demoPassword('reviewer'));
    expect(text).not.toContain(ticket.json().ticket);

    // An edit of the record after signing: the signature no longer matches.
    await on.prisma.$executeRaw`UPDATE "AccessModRequest" SET "reviewerComments" = 'x' WHERE "id" = ${id}`;
    const edited = await call(reviewer, 'GET', `/rest/secure/user_access_mod_request/${id}`);
    expect(edited.json().signatures.map((s: { valid: boolean }) => s.valid)).toEqual([false]);
    const reportAfter = await call(reviewer, 'GET', '/rest/secure/user_access_mod_request/report');
    expect(reportAfter.body.split('\r\n').find((l) => l.startsWith(`${id},`))).toMatch(/,Approved,No$/);
  });

  it("shows an approval's signature on the provenance of the access it granted", async () => {
    const u = await createTestUser(on, 'sigprov');
    const session = await signIn(on.app, u.username, u.password);
    const block = await roleBlockOf(on.prisma, 'Safety Reviewer');
    const filed = await call(session, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: u.user.id,
      requestType: 'NEW',
      accessControls: [block],
    });
    expect(filed.statusCode, filed.body).toBe(200);
    const id = filed.json().id as number;
    const body = { ...approval(id, 'granted with a signature'), userAccesses: [block] };
    const ticket = await ticketCall(reviewer, 'REQUEST_APPROVAL', 'Approved', REVIEW, body, { username: 'reviewer' });
    expect(ticket.statusCode, ticket.body).toBe(200);
    const saved = await call(reviewer, 'PUT', REVIEW, body, { headers: { [SIGNATURE_HEADER]: ticket.json().ticket } });
    expect(saved.statusCode, saved.body).toBe(200);

    const admin = await signIn(on.app, 'admin');
    const provenance = await call(admin, 'GET', `/rest/secure/user_access/user/${u.user.id}/provenance`);
    expect(provenance.statusCode, provenance.body).toBe(200);
    const events = (provenance.json().records as Array<{ events: Array<Record<string, unknown>> }>).flatMap(
      (r) => r.events,
    );
    const granted = events.find((e) => e.source === 'REQUEST' && e.requestId === id);
    expect(granted, JSON.stringify(events)).toBeTruthy();
    expect(granted!.signatures).toEqual([
      expect.objectContaining({
        signerUsername: 'reviewer',
        meaning: 'Approved',
        action: 'REQUEST_APPROVAL',
        valid: true,
      }),
    ]);
  });

  it("signs a registration's denial as a rejection", async () => {
    const user = await signIn(on.app, 'user');
    const filed = await call(user, 'POST', '/rest/secure/user_registration', await registrationBody(on));
    expect(filed.statusCode, filed.body).toBe(200);
    const id = filed.json().id as number;
    const body = { registrationForm: { id, versionno: 0, reviewerComments: 'not eligible' } };
    const unsigned = await call(reviewer, 'PUT', DENY, body);
    expect(unsigned.statusCode, unsigned.body).toBe(422);
    expect(unsigned.json().globalErrors).toEqual([SIGNATURE_ERRORS.required]);
    // The session signed before (the test above): the username is not asked again.
    const ticket = await ticketCall(reviewer, 'REQUEST_REJECTION', 'Rejected', DENY, body);
    expect(ticket.statusCode, ticket.body).toBe(200);
    const denied = await call(reviewer, 'PUT', DENY, body, { headers: { [SIGNATURE_HEADER]: ticket.json().ticket } });
    expect(denied.statusCode, denied.body).toBe(200);
    expect(denied.json().registrationStatus).toBe('DENIED');
    expect(denied.json().signatures).toEqual([
      expect.objectContaining({ meaning: 'Rejected', action: 'REQUEST_REJECTION', valid: true }),
    ]);
    const row = await on.prisma.signature.findFirstOrThrow({
      where: { entityType: 'Registration', entityId: String(id) },
    });
    expect(row.content).toMatchObject({ kind: 'Registration', requestId: id, status: 'DENIED' });
    const view = await call(reviewer, 'GET', `/rest/secure/user_registration/${id}`);
    expect(view.json().signatures.map((s: { valid: boolean }) => s.valid)).toEqual([true]);
  });
});

describe('signatures on: saves that change access, retries, the commit', () => {
  let reviewer: Session;
  let call: ReturnType<typeof caller>;
  beforeAll(async () => {
    call = caller(on.app);
    reviewer = await signIn(on.app, 'reviewer');
    // The session's first signature (username asked once): a ticket made and used on a throwaway approval.
    const id = await filedRequest(on, 'sigfirst');
    const t = await ticketCall(reviewer, 'REQUEST_APPROVAL', 'Approved', REVIEW, approval(id), {
      username: 'reviewer',
    });
    expect(t.statusCode, t.body).toBe(200);
    const done = await call(reviewer, 'PUT', REVIEW, approval(id), {
      headers: { [SIGNATURE_HEADER]: t.json().ticket },
    });
    expect(done.statusCode, done.body).toBe(200);
  });

  it('signs an unresolved save that changes portal roles as REQUEST_SAVE; a comments-only save is not signed', async () => {
    const id = await filedRequest(on, 'sigsave');
    const req = await on.prisma.accessModRequest.findUniqueOrThrow({ where: { id } });
    const extra = await on.prisma.portalRole.findFirstOrThrow({
      where: {
        inactive: false,
        NOT: { permissions: { has: 'ADMIN' } },
        users: { none: { portalUserId: req.subjectUserId } },
      },
    });
    const held = (await on.prisma.portalUserRole.findMany({ where: { portalUserId: req.subjectUserId } })).map(
      (r) => r.portalRoleId,
    );
    const comments = {
      userAccessModificationRequest: { id, versionno: 0, requestStatus: 'IN_PROGRESS', reviewerComments: 'looking' },
    };
    const plain = await call(reviewer, 'PUT', REVIEW, comments);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().signatures).toEqual([]);

    const roles = {
      portalUser: { id: req.subjectUserId, portalRoleIds: [...held, extra.id] },
      userAccessModificationRequest: { id, versionno: 1, requestStatus: 'IN_PROGRESS', reviewerComments: 'looking' },
    };
    const unsigned = await call(reviewer, 'PUT', REVIEW, roles);
    expect(unsigned.statusCode, unsigned.body).toBe(422);
    expect(unsigned.json().globalErrors).toEqual([SIGNATURE_ERRORS.required]);
    // An approval's ticket is not a save's.
    const wrongAction = await ticketCall(reviewer, 'REQUEST_APPROVAL', 'Approved', REVIEW, roles);
    const refused = await call(reviewer, 'PUT', REVIEW, roles, {
      headers: { [SIGNATURE_HEADER]: wrongAction.json().ticket },
    });
    expect(refused.json().globalErrors).toEqual([SIGNATURE_ERRORS.invalid]);

    const t = await ticketCall(reviewer, 'REQUEST_SAVE', 'Reviewed and applied', REVIEW, roles);
    expect(t.statusCode, t.body).toBe(200);
    const saved = await call(reviewer, 'PUT', REVIEW, roles, { headers: { [SIGNATURE_HEADER]: t.json().ticket } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().signatures).toEqual([
      expect.objectContaining({ action: 'REQUEST_SAVE', meaning: 'Reviewed and applied', valid: true }),
    ]);
    const row = await on.prisma.signature.findFirstOrThrow({
      where: { entityType: 'AccessModRequest', entityId: String(id) },
    });
    expect(row.entityVersion).toBe(2);
    expect((row.content as { portalRoleIds: number[] }).portalRoleIds).toContain(extra.id);
  });

  it("signs a registration's approval: the content names the created user and the chosen roles", async () => {
    const user = await signIn(on.app, 'user');
    const filed = await call(user, 'POST', '/rest/secure/user_registration', await registrationBody(on));
    expect(filed.statusCode, filed.body).toBe(200);
    const id = filed.json().id as number;
    const role = await on.prisma.portalRole.findUniqueOrThrow({ where: { description: 'Network User' } });
    const body = {
      registrationForm: { id, versionno: 0, reviewerComments: 'welcome' },
      portalRoleIds: [role.id],
      username: `sigreg${id}`,
      gecos: 'Reg Tester',
    };
    const t = await ticketCall(reviewer, 'REQUEST_APPROVAL', 'Approved', APPROVE, body);
    expect(t.statusCode, t.body).toBe(200);
    const approved = await call(reviewer, 'PUT', APPROVE, body, { headers: { [SIGNATURE_HEADER]: t.json().ticket } });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ registrationStatus: 'APPROVED', versionno: 1 });
    expect(approved.json().signatures).toEqual([expect.objectContaining({ action: 'REQUEST_APPROVAL', valid: true })]);
    const row = await on.prisma.signature.findFirstOrThrow({
      where: { entityType: 'Registration', entityId: String(id) },
    });
    expect(row.content).toMatchObject({
      status: 'APPROVED',
      version: 1,
      portalRoleIds: [role.id],
      details: { username: `sigreg${id}`, portalUserId: approved.json().portalUserId },
    });
  });

  it('answers the retry of a signed attempt its outcome (the ticket already used)', async () => {
    const id = await filedRequest(on, 'sigretry');
    const body = { ...approval(id), attemptKey: 'sig-retry-0001' };
    const t = await ticketCall(reviewer, 'REQUEST_APPROVAL', 'Approved', REVIEW, body);
    const headers = { [SIGNATURE_HEADER]: t.json().ticket };
    const first = await call(reviewer, 'PUT', REVIEW, body, { headers });
    expect(first.statusCode, first.body).toBe(200);
    const retry = await call(reviewer, 'PUT', REVIEW, body, { headers });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().requestStatus).toBe('APPROVED');
    expect(await on.prisma.signature.count({ where: { entityType: 'AccessModRequest', entityId: String(id) } })).toBe(
      1,
    );
  });

  it('the commit refuses a ticket already used, writing nothing', async () => {
    const id = await filedRequest(on, 'sigcommit');
    const t = await ticketCall(reviewer, 'REQUEST_APPROVAL', 'Approved', REVIEW, approval(id));
    expect(t.statusCode, t.body).toBe(200);
    const ticket = await on.prisma.signatureTicket.findFirstOrThrow({
      where: { tokenHash: ticketHash(t.json().ticket) },
    });
    // Used since the route checked it (another call won the race).
    await on.prisma.signatureTicket.update({ where: { id: ticket.id }, data: { usedAt: new Date() } });
    const actor = await on.prisma.portalUser.findUniqueOrThrow({ where: { username: 'reviewer' } });
    const commit = createActivities(on.prisma, testMailSettings(), on.directory).commitSave;
    const workflowId = `access-change-${id}`;
    const result = await commit({
      kind: 'ACCESS_CHANGE',
      requestId: id,
      workflowId,
      version: 1,
      fromStatus: 'NEW',
      toStatus: 'APPROVED',
      reviewerComments: 'signed approval',
      sysaidTicket: '',
      actor: { userId: actor.id, username: actor.username, permissions: ['WRITE_USERS', 'READ_USERS'] },
      signature: { ticketId: ticket.id },
    });
    expect(result).toEqual({
      outcome: 'REFUSED',
      failure: REVIEW_FAILURES.invalid,
      fieldErrors: {},
      globalErrors: [SIGNATURE_ERRORS.invalid],
    });
    const row = await on.prisma.accessModRequest.findUniqueOrThrow({ where: { id } });
    expect([row.requestStatus, row.versionno]).toEqual(['NEW', 0]);
    expect(await on.prisma.auditEvent.count({ where: { idempotencyKey: `${workflowId}:1` } })).toBe(0);
    expect(await on.prisma.signature.count({ where: { ticketId: ticket.id } })).toBe(0);
  });
});

describe('signatures off (the default)', () => {
  it('approves without a ticket and shows no signatures', async () => {
    const call = caller(off.app);
    const reviewer = await signIn(off.app, 'reviewer');
    const id = await filedRequest(off, 'sigoff');
    const res = await call(reviewer, 'PUT', REVIEW, approval(id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().requestStatus).toBe('APPROVED');
    expect(res.json()).not.toHaveProperty('signatures');
    const view = await call(reviewer, 'GET', `/rest/secure/user_access_mod_request/${id}`);
    expect(view.json()).not.toHaveProperty('signatures');
    const report = await call(reviewer, 'GET', '/rest/secure/user_access_mod_request/report');
    expect(report.body.split('\r\n')[0]).toMatch(/,Last Modified By$/);
    expect(await off.prisma.signature.count({ where: { entityType: 'AccessModRequest', entityId: String(id) } })).toBe(
      0,
    );
  });
});
