/**
 * Electronic signatures on the decisions the API writes itself (docs/decisions.md "Electronic signatures"), on
 * the real stack: with SIGNATURES=on an access edit and a portal-role edit on the user detail (USER_ACCESS_EDIT),
 * a deactivation (USER_STATUS), a reviewer's bulk decision (ACCESS_REVIEW_DECISION) and a campaign's close
 * (CAMPAIGN_CLOSE) are refused without a ticket (nothing written) and written with one (a Signature row; the
 * provenance and the reviewer's items show it valid); a ticket used twice or for another body is refused; a
 * signed row edited in SQL shows valid false. With SIGNATURES=off the same calls work without a ticket and the
 * answers carry no `signatures` key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccessProvenance,
  type AccessReviewItem,
  SIGNATURE_ERRORS,
  SIGNATURE_HEADER,
  SIGNATURE_TICKET_PATH,
  type SignatureAction,
  type UserDetail,
} from '@portal/contract';
import { type PortalUser, type Signature, verifyAdminSignatures } from '@portal/db';
import { accessReviewWorkflowId } from '@portal/workflows';
import { roleBlockOf } from '../fixtures';
import {
  type Method,
  type Session,
  type TestApi,
  caller,
  demoPassword,
  signIn,
  startApi,
  startWorker,
} from '../harness';
import { grant, openCampaign, person } from '../access-reviews-api/support';
import { fileCampaign, holdCampaignRow, startCampaign, statusReached } from '../access-review/support';
import { maybeRecordHistory, uniqueQueue } from '../lifecycle/support';

const ACCESS = '/rest/secure/user_access';
const USERS = '/rest/secure/user_management';
const DECISIONS = '/rest/secure/access_review/decisions';
const ITEMS = '/rest/secure/access_review/items';

let on: TestApi;
let off: TestApi;
let callOn: ReturnType<typeof caller>;
let callOff: ReturnType<typeof caller>;
let adminOn: Session;
let adminOff: Session;
let reviewerOn: Session;
let reviewerOff: Session;

beforeAll(async () => {
  [on, off] = await Promise.all([startApi({ SIGNATURES: 'on' }), startApi({ SIGNATURES: 'off' })]);
  callOn = caller(on.app);
  callOff = caller(off.app);
  [adminOn, adminOff, reviewerOn, reviewerOff] = await Promise.all([
    signIn(on.app, 'admin'),
    signIn(off.app, 'admin'),
    signIn(on.app, 'reviewer'),
    signIn(off.app, 'reviewer'),
  ]);
});

afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
});

/** A ticket of `username`'s session for the call (method, path, body) as it will be sent. */
async function ticketFor(
  s: Session,
  username: string,
  action: SignatureAction,
  method: Method,
  path: string,
  body: unknown,
): Promise<string> {
  const meaning = on.cfg.SIGNATURE_MEANINGS[action]![0]!;
  const res = await callOn(s, 'POST', SIGNATURE_TICKET_PATH, {
    action,
    meaning,
    username,
    password: demoPassword(username),
    decision: { method, path, body },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().ticket as string;
}

const signed = (ticket: string) => ({ headers: { [SIGNATURE_HEADER]: ticket } });
const refusal = (res: { statusCode: number; json: () => { globalErrors?: string[] } }) => [
  res.statusCode,
  res.json().globalErrors,
];
const signaturesOf = (entityType: string, entityId: number | string) =>
  on.prisma.signature.findMany({ where: { entityType, entityId: String(entityId) }, orderBy: { id: 'asc' } });
const provenanceOf = async (c: ReturnType<typeof caller>, s: Session, id: number) => {
  const res = await c(s, 'GET', `${ACCESS}/user/${id}/provenance`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AccessProvenance;
};

describe('an access edit on the user detail (USER_ACCESS_EDIT)', () => {
  let subject: PortalUser;
  beforeAll(async () => {
    subject = await person(on.prisma, 'Sigaccess');
  });

  it('is refused without a ticket and writes nothing', async () => {
    const body = { ...(await roleBlockOf(on.prisma, 'Data Manager')), portalUserId: subject.id };
    expect(refusal(await callOn(adminOn, 'POST', ACCESS, body))).toEqual([422, [SIGNATURE_ERRORS.required]]);
    expect(await on.prisma.userAccess.count({ where: { portalUserId: subject.id } })).toBe(0);
    expect(await signaturesOf('PortalUser', subject.id)).toEqual([]);
  });

  it('is written with a ticket, signed once, shown valid on the provenance, invalid once the record is edited', async () => {
    const body = { ...(await roleBlockOf(on.prisma, 'Data Manager')), portalUserId: subject.id };
    const other = { ...(await roleBlockOf(on.prisma, 'Safety Reviewer')), portalUserId: subject.id };
    const ticket = await ticketFor(adminOn, 'admin', 'USER_ACCESS_EDIT', 'POST', ACCESS, body);
    // The ticket is bound to its body: another body is refused and the ticket stays usable.
    expect(refusal(await callOn(adminOn, 'POST', ACCESS, other, signed(ticket)))).toEqual([
      422,
      [SIGNATURE_ERRORS.invalid],
    ]);
    const res = await callOn(adminOn, 'POST', ACCESS, body, signed(ticket));
    expect(res.statusCode, res.body).toBe(200);
    const record = res.json() as { id: number; versionno: number };
    // Used once: the same ticket again is refused (before anything is looked at).
    expect(refusal(await callOn(adminOn, 'POST', ACCESS, body, signed(ticket)))).toEqual([
      422,
      [SIGNATURE_ERRORS.invalid],
    ]);
    const rows = await signaturesOf('PortalUser', subject.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'USER_ACCESS_EDIT', signerUsername: 'admin', meaning: 'Authored' });
    expect(rows[0]!.content).toMatchObject({
      kind: 'USER_ACCESS_EDIT',
      userId: subject.id,
      accesses: [{ id: record.id, versionno: record.versionno, roleName: 'Data Manager', removed: false }],
    });

    const shown = (await provenanceOf(callOn, adminOn, subject.id)).records[0]!.events;
    const granted = shown.find((e) => e.source === 'ADMIN_EDIT')!;
    expect(granted.signatures).toEqual([
      expect.objectContaining({ action: 'USER_ACCESS_EDIT', signerUsername: 'admin', valid: true }),
    ]);
    expect(Number.isNaN(Date.parse(granted.signatures![0]!.signedAt))).toBe(false);

    await on.prisma.$executeRaw`UPDATE "UserAccess" SET "siteCodes" = ARRAY['ZZ9'] WHERE id = ${record.id}`;
    const after = (await provenanceOf(callOn, adminOn, subject.id)).records[0]!.events;
    expect(after.find((e) => e.source === 'ADMIN_EDIT')!.signatures![0]!.valid).toBe(false);
  });
});

describe('a portal-role edit and a deactivation on the user detail', () => {
  let subject: PortalUser;
  let roleId: number;
  let body: Record<string, unknown>;
  beforeAll(async () => {
    subject = await person(on.prisma, 'Sigroles');
    roleId = (await on.prisma.portalRole.findFirstOrThrow({ where: { inactive: false }, orderBy: { id: 'asc' } })).id;
    const detail = (await callOn(adminOn, 'GET', `${USERS}/user/${subject.id}`)).json() as Record<string, unknown>;
    const keys = ['id', 'firstName', 'lastName', 'email', 'username', 'gecos', 'organizationName', 'jobTitle'];
    const more = ['phoneNumber', 'phoneExtension', 'address1', 'address2', 'city', 'country', 'state', 'postalCode'];
    body = Object.fromEntries([...keys, ...more].map((k) => [k, detail[k]]));
    body.portalRoleIds = [roleId];
  });

  it('a roles change needs a USER_ACCESS_EDIT ticket and signs the roles', async () => {
    const url = `${USERS}/update_user`;
    expect(refusal(await callOn(adminOn, 'PUT', url, body))).toEqual([422, [SIGNATURE_ERRORS.required]]);
    expect(await on.prisma.portalUserRole.count({ where: { portalUserId: subject.id } })).toBe(0);
    const ticket = await ticketFor(adminOn, 'admin', 'USER_ACCESS_EDIT', 'PUT', url, body);
    const res = await callOn(adminOn, 'PUT', url, body, signed(ticket));
    expect(res.statusCode, res.body).toBe(200);
    const rows = await signaturesOf('PortalUser', subject.id);
    expect(rows.map((r) => r.content)).toEqual([
      { kind: 'USER_ACCESS_EDIT', userId: subject.id, accesses: [], portalRoleIds: [roleId] },
    ]);
    expect([...(await verifyAdminSignatures(on.prisma, rows)).values()]).toEqual([true]);
  });

  it('a deactivation needs a USER_STATUS ticket; the signature no longer matches once the row is edited', async () => {
    const url = `${USERS}/deactivate_user/${subject.id}`;
    expect(refusal(await callOn(adminOn, 'PUT', url))).toEqual([422, [SIGNATURE_ERRORS.required]]);
    expect((await on.prisma.portalUser.findUniqueOrThrow({ where: { id: subject.id } })).inactive).toBe(false);
    const ticket = await ticketFor(adminOn, 'admin', 'USER_STATUS', 'PUT', url, null);
    const res = await callOn(adminOn, 'PUT', url, undefined, signed(ticket));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().inactive).toBe(true);
    const rows = (await signaturesOf('PortalUser', subject.id)).filter((r) => r.action === 'USER_STATUS');
    expect(rows.map((r) => r.content)).toEqual([{ kind: 'USER_STATUS', userId: subject.id, status: 'INACTIVE' }]);
    expect([...(await verifyAdminSignatures(on.prisma, rows)).values()]).toEqual([true]);
    // The user detail shows both signed decisions, newest first, each as its record stands now.
    const shown = async () =>
      ((await callOn(adminOn, 'GET', `${USERS}/user/${subject.id}`)).json() as UserDetail).signatures;
    expect(await shown()).toMatchObject([
      { action: 'USER_STATUS', signerUsername: 'admin', meaning: 'Approved', method: 'PASSWORD', valid: true },
      { action: 'USER_ACCESS_EDIT', signerUsername: 'admin', valid: true },
    ]);
    await on.prisma.$executeRaw`UPDATE "PortalUser" SET inactive = false WHERE id = ${subject.id}`;
    expect([...(await verifyAdminSignatures(on.prisma, rows)).values()]).toEqual([false]);
    expect((await shown())?.map((v) => [v.action, v.valid])).toEqual([
      ['USER_STATUS', false],
      ['USER_ACCESS_EDIT', true],
    ]);
  });
});

describe("a reviewer's bulk decision (ACCESS_REVIEW_DECISION)", () => {
  it('is signed once naming every item, a stale or refused item signed but not applied; a tampered item is invalid', async () => {
    const lao = `SG${Date.now().toString(36).toUpperCase()}`;
    const people = await Promise.all(['Sigone', 'Sigtwo', 'Sigthree'].map((n) => person(on.prisma, n)));
    const records = await Promise.all(people.map((p) => grant(on.prisma, p, 'Data Manager', { laoIds: [lao] })));
    const campaign = await openCampaign(on.prisma, records);
    const items = await on.prisma.accessReviewItem.findMany({
      where: { campaignId: campaign.id },
      orderBy: { id: 'asc' },
    });
    // The third record changed after the snapshot: its decision is recorded but not applied.
    await on.prisma.userAccess.update({ where: { id: records[2]!.id }, data: { inactive: true } });
    const unknown = 2_000_000_000;
    const body = { campaignId: campaign.id, itemIds: [...items.map((i) => i.id), unknown], decision: 'KEEP' };

    expect(refusal(await callOn(reviewerOn, 'POST', DECISIONS, body))).toEqual([422, [SIGNATURE_ERRORS.required]]);
    expect(
      await on.prisma.accessReviewItem.count({ where: { campaignId: campaign.id, decision: { not: null } } }),
    ).toBe(0);

    const ticket = await ticketFor(reviewerOn, 'reviewer', 'ACCESS_REVIEW_DECISION', 'POST', DECISIONS, body);
    const res = await callOn(reviewerOn, 'POST', DECISIONS, body, signed(ticket));
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as { decided: number; results: { itemId: number; ok: boolean; signed?: boolean }[] };
    expect(result.decided).toBe(3);
    expect(result.results.every((r) => r.signed === true)).toBe(true);
    expect(result.results.find((r) => r.itemId === unknown)!.ok).toBe(false);

    const rows = await signaturesOf('AccessReviewCampaign', campaign.id);
    expect(rows).toHaveLength(1);
    const content = rows[0]!.content as { items: { itemId: number; applied: boolean }[] };
    expect(content.items.map((i) => [i.itemId, i.applied])).toEqual([
      [items[0]!.id, true],
      [items[1]!.id, true],
      [items[2]!.id, false],
      [unknown, false],
    ]);

    const page = async () => {
      const r = await callOn(reviewerOn, 'GET', `${ITEMS}?campaignId=${campaign.id}&state=ALL&size=50`);
      expect(r.statusCode, r.body).toBe(200);
      return (r.json() as { content: AccessReviewItem[] }).content;
    };
    const shown = await page();
    expect(shown).toHaveLength(3);
    for (const item of shown) {
      expect(item.signatures).toEqual([
        expect.objectContaining({ action: 'ACCESS_REVIEW_DECISION', signerUsername: 'reviewer', valid: true }),
      ]);
      expect(item.signatures![0]!.items).toEqual(content.items.map((i) => String(i.itemId)));
    }
    // The provenance of the first person shows the same signature on the decision's event.
    const events = (await provenanceOf(callOn, adminOn, people[0]!.id)).records[0]!.events;
    expect(events.find((e) => e.source === 'CAMPAIGN')!.signatures!.map((s) => s.id)).toEqual([rows[0]!.id.toString()]);

    await on.prisma.$executeRaw`UPDATE "AccessReviewItem" SET comment = 'edited afterwards' WHERE id = ${items[0]!.id}`;
    const tampered = await page();
    expect(tampered.every((i) => i.signatures![0]!.valid === false)).toBe(true);
  });
});

describe("a campaign's close by a person (CAMPAIGN_CLOSE)", () => {
  it('is refused without a ticket before the workflow is asked, and the campaign stays open', async () => {
    const p = await person(on.prisma, 'Sigclose');
    const campaign = await openCampaign(on.prisma, [await grant(on.prisma, p, 'Data Manager')]);
    const url = `/rest/secure/system_mgmt/access_reviews/${campaign.id}/close`;
    expect(refusal(await callOn(adminOn, 'POST', url))).toEqual([422, [SIGNATURE_ERRORS.required]]);
    expect((await on.prisma.accessReviewCampaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe(
      'OPEN',
    );
    expect(await signaturesOf('AccessReviewCampaign', campaign.id)).toEqual([]);
  });

  it("is signed with a ticket through the workflow's close; the system's outcomes cite the signed close", async () => {
    const queue = uniqueQueue('sig-close');
    const stop = await startWorker(on, queue);
    try {
      const role = `Sig Role ${Date.now().toString(36)}`;
      const p = await person(on.prisma, 'Sigclosed');
      await grant(on.prisma, p, role);
      const campaign = await fileCampaign(on.prisma, { scope: { roleNames: [role] } });
      await startCampaign(on.prisma, on.deps.temporal, queue, campaign);
      await statusReached(on.prisma, campaign.id, 'OPEN');
      const url = `/rest/secure/system_mgmt/access_reviews/${campaign.id}/close`;
      const ticket = await ticketFor(adminOn, 'admin', 'CAMPAIGN_CLOSE', 'POST', url, null);
      const res = await callOn(adminOn, 'POST', url, undefined, signed(ticket));
      expect(res.statusCode, res.body).toBe(200);
      await statusReached(on.prisma, campaign.id, 'CLOSED');
      // Recorded for the replay test: the close's update carrying the signature's reference.
      const handle = on.deps.temporal.workflow.getHandle(accessReviewWorkflowId(campaign.id));
      await handle.result();
      await maybeRecordHistory({ client: on.deps.temporal }, handle.workflowId, 'access-review', 'closed-signed');
      const rows = await signaturesOf('AccessReviewCampaign', campaign.id);
      expect(rows.map((r) => [r.action, r.signerUsername, r.content])).toEqual([
        [
          'CAMPAIGN_CLOSE',
          'admin',
          { kind: 'CAMPAIGN_CLOSE', campaignId: campaign.id, name: campaign.name, closedByUsername: 'admin' },
        ],
      ]);
      // The item nobody decided was kept by the campaign's default: that event shows the close it followed.
      const events = (await provenanceOf(callOn, adminOn, p.id)).records[0]!.events;
      const kept = events.find((e) => e.source === 'CAMPAIGN' && e.campaignId === campaign.id)!;
      expect(kept.signatures).toEqual([expect.objectContaining({ action: 'CAMPAIGN_CLOSE', valid: true })]);
      await on.prisma
        .$executeRaw`UPDATE "AccessReviewCampaign" SET "closedByUsername" = 'someone' WHERE id = ${campaign.id}`;
      expect([...(await verifyAdminSignatures(on.prisma, rows)).values()]).toEqual([false]);
    } finally {
      await stop();
    }
  });

  it('still closes when the ticket expires before the close takes it: no signature, the CLOSING row says so', async () => {
    const queue = uniqueQueue('sig-close-late');
    const stop = await startWorker(on, queue);
    try {
      const role = `Sig Late ${Date.now().toString(36)}`;
      await grant(on.prisma, await person(on.prisma, 'Sigcloselate'), role);
      const campaign = await fileCampaign(on.prisma, { scope: { roleNames: [role] } });
      await startCampaign(on.prisma, on.deps.temporal, queue, campaign);
      await statusReached(on.prisma, campaign.id, 'OPEN');
      const url = `/rest/secure/system_mgmt/access_reviews/${campaign.id}/close`;
      const ticket = await ticketFor(adminOn, 'admin', 'CAMPAIGN_CLOSE', 'POST', url, null);
      // The campaign row held: the close is accepted (the API checked the ticket) and its activity waits.
      const release = await holdCampaignRow(on.prisma, campaign.id);
      try {
        const res = await callOn(adminOn, 'POST', url, undefined, signed(ticket));
        expect(res.statusCode, res.body).toBe(200);
        const admin = await on.prisma.portalUser.findUniqueOrThrow({ where: { username: 'admin' } });
        await on.prisma.signatureTicket.updateMany({
          where: { signerUserId: admin.id, action: 'CAMPAIGN_CLOSE', usedAt: null },
          data: { expiresAt: new Date(Date.now() - 1000) },
        });
      } finally {
        await release();
      }
      await statusReached(on.prisma, campaign.id, 'CLOSED');
      expect(await signaturesOf('AccessReviewCampaign', campaign.id)).toEqual([]);
      const closing = await on.prisma.auditEvent.findFirstOrThrow({
        where: { entityType: 'AccessReview', entityId: String(campaign.id), action: 'CLOSING' },
      });
      expect(closing.after).toEqual({ by: 'admin', signatureNotTaken: true });
    } finally {
      await stop();
    }
  });
});

describe('with SIGNATURES=off', () => {
  it('the same calls work without a ticket and no answer carries `signatures`', async () => {
    const subject = await person(off.prisma, 'Sigoff');
    const body = { ...(await roleBlockOf(off.prisma, 'Data Manager')), portalUserId: subject.id };
    const created = await callOff(adminOff, 'POST', ACCESS, body);
    expect(created.statusCode, created.body).toBe(200);
    const status = await callOff(adminOff, 'PUT', `${USERS}/deactivate_user/${subject.id}`);
    expect(status.statusCode, status.body).toBe(200);
    const detail = await callOff(adminOff, 'GET', `${USERS}/user/${subject.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).not.toHaveProperty('signatures');
    const provenance = await provenanceOf(callOff, adminOff, subject.id);
    expect(provenance.records[0]!.events.length).toBeGreaterThan(0);
    expect(provenance.records[0]!.events.every((e) => !('signatures' in e))).toBe(true);

    const lao = `SO${Date.now().toString(36).toUpperCase()}`;
    const reviewed = await person(off.prisma, 'Sigoffrev');
    const campaign = await openCampaign(off.prisma, [
      await grant(off.prisma, reviewed, 'Data Manager', { laoIds: [lao] }),
    ]);
    const item = await off.prisma.accessReviewItem.findFirstOrThrow({ where: { campaignId: campaign.id } });
    const decided = await callOff(reviewerOff, 'POST', DECISIONS, {
      campaignId: campaign.id,
      itemIds: [item.id],
      decision: 'KEEP',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json().results).toEqual([{ itemId: item.id, ok: true, message: null }]);
    const items = await callOff(reviewerOff, 'GET', `${ITEMS}?campaignId=${campaign.id}&state=ALL`);
    expect(items.statusCode, items.body).toBe(200);
    const content = (items.json() as { content: AccessReviewItem[] }).content;
    expect(content).toHaveLength(1);
    expect('signatures' in content[0]!).toBe(false);
    const written: Signature[] = await off.prisma.signature.findMany({
      where: { entityId: { in: [String(subject.id), String(campaign.id)] } },
    });
    expect(written.filter((s) => s.entityType !== 'AccessModRequest')).toEqual([]);
  });
});
