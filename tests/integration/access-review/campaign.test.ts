/**
 * Access review campaigns (issue 25 "Access review campaigns") against real PostgreSQL, Temporal and the mail
 * catcher, with an in-process worker: the snapshot of each scope (all, systems, study roles, LAOs) into items
 * in small batches across continue-as-new, the item pools of both reviewer kinds, the invitation once per
 * reviewer and reminders on shrunken durations, the close at the deadline applying the default (KEEP and
 * REMOVE), an ADMIN's early close and cancel through the updates (and their refusals), Remove decisions
 * carried out once through the access-records writer (audited, one mail per person), a changed record never
 * removed (CHANGED), the scheduled workflow's filing and child start, and the reconciler's start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { ACCESS_REVIEW_MESSAGES } from '@portal/contract';
import { type PrismaClient, applyAccessPlan, lockAndLoadAccess } from '@portal/db';
import { createActivities, reconcileUnstartedRequests } from '@portal/worker';
import {
  ACCESS_REVIEW_CLOSE_DURING_SNAPSHOT,
  ACCESS_REVIEW_SCHEDULED_WORKFLOW_TYPE,
  type AccessReviewSummary,
  accessReviewProgressQuery,
  accessReviewWorkflowId,
  cancelAccessReviewUpdate,
  closeAccessReviewUpdate,
} from '@portal/workflows';
import { testMailSettings, testPrisma } from '../fixtures';
import {
  type TemporalTestEnv,
  connectTemporal,
  maybeRecordHistory,
  newWorker,
  uniqueQueue,
  until,
} from '../lifecycle/support';
import {
  accessAudit,
  campaignRow,
  decide,
  fileCampaign,
  grant,
  holdCampaignRow,
  holdItemSlot,
  itemsOf,
  mailsTo,
  person,
  someoneWaits,
  startCampaign,
  statusReached,
  tag,
} from './support';

const queue = uniqueQueue('access-review');
let prisma: PrismaClient;
let env: TemporalTestEnv;
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  prisma = testPrisma();
  env = await connectTemporal();
  worker = await newWorker(env, prisma, queue);
  running = worker.run();
});
afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.close();
  await prisma?.$disconnect();
});

const handleOf = (workflowId: string) => env.client.workflow.getHandle(workflowId);
const resultOf = (workflowId: string) => handleOf(workflowId).result() as Promise<AccessReviewSummary>;
const record = (workflowId: string, name: string) =>
  maybeRecordHistory({ client: env.client }, workflowId, 'access-review', name);

/** The message an update was refused with. */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) return (err.cause as Error).message;
    throw err;
  }
  throw new Error('the update was accepted');
}

describe('the snapshot', () => {
  it('stores every active record of each scope once, in small batches across continue-as-new', async () => {
    const role = tag('Role ');
    const [lao, otherLao] = [tag('LAO'), tag('LAO')];
    const systems = await prisma.systemAccess.findMany({ orderBy: { id: 'asc' }, take: 2 });
    const [sysA, sysB] = systems.map((s) => s.id);
    const people = await Promise.all([1, 2, 3, 4].map((i) => person(prisma, `snap${i}`)));
    const records = [
      await grant(prisma, people[0]!, role, { laoIds: [lao], systemAccessIds: [sysA!] }),
      await grant(prisma, people[1]!, role, { laoIds: [otherLao], systemAccessIds: [sysB!] }),
      await grant(prisma, people[2]!, role, { laoIds: [], systemAccessIds: [sysA!, sysB!] }),
      await grant(prisma, people[3]!, role, { laoIds: [lao, otherLao] }),
    ];
    // An inactive record is never in scope.
    await prisma.userAccess.create({
      data: { portalUserId: people[0]!.id, roleName: role, inactive: true, createdBy: 'test', lastModifiedBy: 'test' },
    });
    const ids = (rs: typeof records) => rs.map((r) => r.id).sort((a, b) => a - b);
    const run = async (scope: object, reviewers: 'LAO_STAFF' | 'USER_SUPPORT' = 'LAO_STAFF', history?: string) => {
      const campaign = await fileCampaign(prisma, { scope: { roleNames: [role], ...scope }, reviewers });
      const workflowId = await startCampaign(prisma, env.client, queue, campaign, {
        snapshotBatch: 1,
        snapshotBatchesPerRun: 2,
      });
      // A campaign with no items closes at once; the others are cancelled once open.
      await until(async () => (await campaignRow(prisma, campaign.id)).status !== 'STARTING', 'the snapshot');
      const opened = await campaignRow(prisma, campaign.id);
      const items = await itemsOf(prisma, campaign.id);
      expect(opened.itemsTotal).toBe(items.length);
      if (items.length) {
        await handleOf(workflowId).executeUpdate(cancelAccessReviewUpdate, { args: [{ username: 'admin' }] });
      }
      expect((await resultOf(workflowId)).status).toBe(items.length ? 'CANCELLED' : 'CLOSED');
      if (history) {
        // The last run was continued from an earlier one (the history stays short).
        const [first] = (await handleOf(workflowId).fetchHistory()).events ?? [];
        expect(first?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId).toBeTruthy();
        await record(workflowId, history);
      }
      return items;
    };
    // Study roles only: all four, each once (batches of 1, two per run: the snapshot continued as new).
    const all = await run({}, 'LAO_STAFF', 'snapshot-continued-as-new');
    expect(all.map((i) => i.accessId)).toEqual(ids(records));
    expect(Object.fromEntries(all.map((i) => [i.accessId, i.reviewLaoIds]))).toEqual({
      [records[0]!.id]: [lao],
      [records[1]!.id]: [otherLao],
      [records[2]!.id]: [],
      [records[3]!.id]: [lao, otherLao].sort(),
    });
    expect(all[0]).toMatchObject({ portalUserId: people[0]!.id, username: people[0]!.username, roleName: role });
    // Systems: any of the listed ones.
    expect((await run({ systemAccessIds: [sysA] })).map((i) => i.accessId)).toEqual(ids([records[0]!, records[2]!]));
    // LAOs: any overlap; AND with the systems list.
    expect((await run({ laoIds: [lao] })).map((i) => i.accessId)).toEqual(ids([records[0]!, records[3]!]));
    expect((await run({ laoIds: [lao], systemAccessIds: [sysB] })).map((i) => i.accessId)).toEqual([]);
    // A User Support campaign: every item in the User Support pool.
    const support = await run({}, 'USER_SUPPORT');
    expect(support.map((i) => i.reviewLaoIds)).toEqual([[], [], [], []]);
  });

  it("takes a record's LAOs from its LAOs, its AOs' active LAO relations and an LAO's own AO", async () => {
    const role = tag('Role ');
    const [lao, otherLao, ao, loneAo, formerAo] = [tag('LAO'), tag('LAO'), tag('AO'), tag('AO'), tag('AO')];
    // An LAO is listed as an AO too (the seed's sites): reference.test.ts's invariant holds beside this test,
    // also while that file reads the list, so both rows of an LAO are written by one statement.
    for (const code of [lao, otherLao]) {
      await prisma.site.createMany({
        data: [
          { siteCode: code, siteName: `${code} LAO`, siteType: 'LAO', laoCode: code },
          { siteCode: code, siteName: code, siteType: 'AO' },
        ],
      });
    }
    for (const code of [ao, loneAo, formerAo]) {
      await prisma.site.create({ data: { siteCode: code, siteName: code, siteType: 'AO' } });
    }
    await prisma.siteRelation.createMany({
      data: [
        { laoCode: lao, siteCode: ao, studyName: tag('Study') },
        { laoCode: lao, siteCode: ao, studyName: tag('Study') },
        { laoCode: otherLao, siteCode: formerAo, studyName: tag('Study'), active: false },
      ],
    });
    const people = await Promise.all([1, 2, 3, 4, 5].map((i) => person(prisma, `sites${i}`)));
    const [atAo, atLaoTwin, atLoneAo, both, atFormer] = [
      await grant(prisma, people[0]!, role, { siteCodes: [ao] }),
      await grant(prisma, people[1]!, role, { siteCodes: [lao] }),
      await grant(prisma, people[2]!, role, { siteCodes: [loneAo] }),
      await grant(prisma, people[3]!, role, { laoIds: [otherLao], siteCodes: [ao] }),
      await grant(prisma, people[4]!, role, { siteCodes: [formerAo] }),
    ];
    const snapshot = async (scope: object) => {
      const campaign = await fileCampaign(prisma, { scope: { roleNames: [role], ...scope } });
      const workflowId = await startCampaign(prisma, env.client, queue, campaign, { snapshotBatch: 2 });
      await until(async () => (await campaignRow(prisma, campaign.id)).status !== 'STARTING', 'the snapshot');
      const items = await itemsOf(prisma, campaign.id);
      if (items.length) {
        await handleOf(workflowId).executeUpdate(cancelAccessReviewUpdate, { args: [{ username: 'admin' }] });
      }
      await resultOf(workflowId);
      return Object.fromEntries(items.map((i) => [i.accessId, i.reviewLaoIds]));
    };
    // Pools: LAO staff of the LAO an AO belongs to review it; an AO of no LAO (or a former one) goes to User Support.
    expect(await snapshot({})).toEqual({
      [atAo.id]: [lao],
      [atLaoTwin.id]: [lao],
      [atLoneAo.id]: [],
      [both.id]: [lao, otherLao].sort(),
      [atFormer.id]: [],
    });
    // A campaign over one LAO holds the records at its AOs as well.
    expect(Object.keys(await snapshot({ laoIds: [lao] })).map(Number)).toEqual(
      [atAo.id, atLaoTwin.id, both.id].sort((a, b) => a - b),
    );
    expect(Object.keys(await snapshot({ laoIds: [otherLao] })).map(Number)).toEqual([both.id]);
  });

  it('stores all access when every list is empty', async () => {
    const p = await person(prisma, 'all');
    const r = await grant(prisma, p, tag('Role '));
    // Other files grant and remove access while the snapshot runs, so the records up to this file's are
    // read before the start and after the snapshot: each record active at both reads is stored, and no
    // record is stored that was active at neither (on a quiet database both reads are the same set).
    const activeUpTo = async () =>
      (await prisma.userAccess.findMany({ where: { inactive: false, id: { lte: r.id } }, select: { id: true } })).map(
        (a) => a.id,
      );
    const activeBefore = await activeUpTo();
    const campaign = await fileCampaign(prisma, {});
    const workflowId = await startCampaign(prisma, env.client, queue, campaign, { snapshotBatch: 500 });
    const open = await statusReached(prisma, campaign.id, 'OPEN');
    const activeAfter = new Set(await activeUpTo());
    const stored = (
      await prisma.accessReviewItem.findMany({
        where: { campaignId: campaign.id, accessId: { lte: r.id } },
        select: { accessId: true },
      })
    ).map((i) => i.accessId);
    const throughout = activeBefore.filter((id) => activeAfter.has(id));
    const atEither = new Set([...activeBefore, ...activeAfter]);
    expect(throughout).toContain(r.id);
    const storedIds = new Set(stored);
    expect(storedIds.size).toBe(stored.length);
    expect(throughout.filter((id) => !storedIds.has(id))).toEqual([]);
    expect(stored.filter((id) => !atEither.has(id))).toEqual([]);
    expect(open.itemsTotal).toBeGreaterThanOrEqual(stored.length);
    await handleOf(workflowId).executeUpdate(cancelAccessReviewUpdate, { args: [{ username: 'admin' }] });
    await resultOf(workflowId);
  });
});

describe('reviewers and their mails', () => {
  it('invites each reviewer once and reminds only those with undecided items, never after the deadline', async () => {
    const role = tag('Role ');
    const [laoX, laoY] = [tag('LAO'), tag('LAO')];
    const staffX = await person(prisma, 'staffx');
    const staffY = await person(prisma, 'staffy');
    await grant(prisma, staffX, 'LAO Staff', { laoIds: [laoX] });
    await grant(prisma, staffY, 'LAO Staff', { laoIds: [laoY] });
    // staffY's own record in X is reviewed by staffX; staffY reviews laoY only.
    const subjects = await Promise.all([person(prisma, 'subx'), person(prisma, 'suby')]);
    const rx = await grant(prisma, subjects[0]!, role, { laoIds: [laoX] });
    const ry = await grant(prisma, subjects[1]!, role, { laoIds: [laoY] });
    await grant(prisma, staffY, role, { laoIds: [laoX] });
    const campaign = await fileCampaign(prisma, { scope: { roleNames: [role] } });
    const workflowId = await startCampaign(prisma, env.client, queue, campaign, {
      duration: '10 seconds',
      reminderEvery: '4 seconds',
    });
    await statusReached(prisma, campaign.id, 'OPEN');
    // staffY decides at once: no reminder for them.
    await decide(prisma, campaign.id, [ry.id], 'KEEP', staffY.username);
    const summary = await resultOf(workflowId);
    expect(summary).toMatchObject({ status: 'CLOSED', itemsTotal: 3, kept: 3, removed: 0, mailsFailed: 0 });
    const invitedX = await mailsTo(staffX.email, `access review ${campaign.name} needs your decisions`);
    expect(invitedX).toHaveLength(1);
    expect(invitedX[0]!.text).toContain(`/app/access-reviews?campaignId=${campaign.id}`);
    expect(invitedX[0]!.text).toContain('2 access record(s)');
    expect(invitedX[0]!.text).toContain('closes on');
    expect(await mailsTo(staffY.email, `access review ${campaign.name} needs your decisions`)).toHaveLength(1);
    // Reminders at 4 s and 8 s (the deadline is 10 s): staffX twice, staffY never.
    expect(await mailsTo(staffX.email, `reminder: access review ${campaign.name}`)).toHaveLength(2);
    expect(await mailsTo(staffY.email, `reminder: access review ${campaign.name}`)).toHaveLength(0);
    // No User Support items: User Support is not invited.
    expect(await mailsTo('reviewer@portal.test', campaign.name)).toHaveLength(0);
    const row = await campaignRow(prisma, campaign.id);
    expect(row).toMatchObject({ status: 'CLOSED', closedByUsername: 'system', keptCount: 3 });
    expect(rx.id).toBeLessThan(ry.id);
    await record(workflowId, 'deadline-with-reminders');
  });

  it('invites User Support when there are User Support items, never only about themselves', async () => {
    const role = tag('Role ');
    const supporter = await person(prisma, 'support', ['User Support']);
    const subject = await person(prisma, 'nolao');
    await grant(prisma, subject, role);
    // The supporter's own record alone would not make them a reviewer; the subject's record does.
    await grant(prisma, supporter, role);
    const campaign = await fileCampaign(prisma, { scope: { roleNames: [role] } });
    const workflowId = await startCampaign(prisma, env.client, queue, campaign);
    await statusReached(prisma, campaign.id, 'OPEN');
    await until(async () => (await mailsTo(supporter.email, campaign.name)).length === 1, 'the supporter invited');
    expect((await mailsTo(supporter.email, campaign.name))[0]!.text).toContain('1 access record(s)');
    expect(await mailsTo(subject.email, campaign.name)).toHaveLength(0);
    await handleOf(workflowId).executeUpdate(cancelAccessReviewUpdate, { args: [{ username: 'admin' }] });
    await resultOf(workflowId);
  });
});

describe('the close', () => {
  it('at the deadline keeps undecided items (default KEEP) and removes the Remove decisions once, audited and mailed', async () => {
    const role = tag('Role ');
    const lao = tag('LAO');
    const [a, b] = [await person(prisma, 'keepa'), await person(prisma, 'removeb')];
    const ra = await grant(prisma, a, role, { laoIds: [lao] });
    const rb1 = await grant(prisma, b, role, { laoIds: [lao] });
    const rb2 = await grant(prisma, b, `${role} 2`, { laoIds: [lao] });
    const campaign = await fileCampaign(prisma, { scope: { laoIds: [lao] }, defaultDecision: 'KEEP' });
    const workflowId = await startCampaign(prisma, env.client, queue, campaign, { duration: '4 seconds' });
    await statusReached(prisma, campaign.id, 'OPEN');
    await decide(prisma, campaign.id, [rb1.id, rb2.id], 'REMOVE');
    const summary = await resultOf(workflowId);
    expect(summary).toMatchObject({ status: 'CLOSED', itemsTotal: 3, kept: 1, removed: 2, changed: 0, failed: 0 });
    const items = await itemsOf(prisma, campaign.id);
    expect(items.map((i) => [i.accessId, i.decision, i.defaulted, i.outcome])).toEqual([
      [ra.id, 'KEEP', true, 'KEPT'],
      [rb1.id, 'REMOVE', false, 'REMOVED'],
      [rb2.id, 'REMOVE', false, 'REMOVED'],
    ]);
    expect(await prisma.userAccess.count({ where: { portalUserId: b.id, inactive: false } })).toBe(0);
    // Through the writer: each removed record's new version is inactive, one each.
    for (const r of [rb1, rb2]) {
      const versions = await prisma.userAccess.findMany({ where: { priorAccessControlId: r.id } });
      expect(versions).toHaveLength(1);
      expect(versions[0]).toMatchObject({ inactive: true, versionno: 2, lastModifiedBy: 'system' });
    }
    const removedRows = await accessAudit(prisma, b.id, 'ACCESS_REMOVED_BY_REVIEW');
    expect(removedRows.map((r) => (r.after as { accessId: number }).accessId).sort()).toEqual([rb1.id, rb2.id].sort());
    expect(removedRows[0]).toMatchObject({ actorUsername: 'laostaff', workflowId });
    expect(removedRows[0]!.after).toMatchObject({
      campaignId: campaign.id,
      campaignName: campaign.name,
      decision: 'REMOVE',
    });
    expect(await accessAudit(prisma, a.id, 'ACCESS_KEPT_BY_REVIEW')).toHaveLength(1);
    // One mail to the removed person naming both roles; none to the kept one.
    await until(async () => (await mailsTo(b.email, 'your access was removed')).length === 1, 'the removal mail');
    expect((await mailsTo(b.email, 'your access was removed'))[0]!.text).toContain(`${role}, ${role} 2`);
    expect(await mailsTo(a.email, 'your access was removed')).toHaveLength(0);
    const row = await campaignRow(prisma, campaign.id);
    expect(row).toMatchObject({ status: 'CLOSED', removedCount: 2, keptCount: 1, changedCount: 0 });
    const campaignAudit = await prisma.auditEvent.findMany({
      where: { entityType: 'AccessReview', entityId: String(campaign.id) },
      orderBy: { id: 'asc' },
    });
    expect(campaignAudit.map((r) => r.action).filter((x) => x !== 'MAIL_SENT')).toEqual([
      'CREATED',
      'OPENED',
      'CLOSING',
      'CLOSED',
    ]);
    expect(campaignAudit.at(-1)!.after).toMatchObject({ removed: 2, kept: 1, changed: 0, mailsFailed: 0 });
    await record(workflowId, 'deadline-removed');
  });

  it('at the deadline removes undecided items when the default is REMOVE, and never a record changed since', async () => {
    const role = tag('Role ');
    const [a, b, c] = [await person(prisma, 'defa'), await person(prisma, 'keptb'), await person(prisma, 'chgc')];
    const ra = await grant(prisma, a, role);
    const rb = await grant(prisma, b, role);
    const rc = await grant(prisma, c, role, { siteCodes: ['MA036'] });
    const campaign = await fileCampaign(prisma, { scope: { roleNames: [role] }, defaultDecision: 'REMOVE' });
    const workflowId = await startCampaign(prisma, env.client, queue, campaign, { duration: '4 seconds' });
    await statusReached(prisma, campaign.id, 'OPEN');
    await decide(prisma, campaign.id, [rb.id], 'KEEP', 'reviewer');
    await decide(prisma, campaign.id, [rc.id], 'REMOVE', 'reviewer');
    // c's record changes after the snapshot (a new version by the writer): the stale decision removes nothing.
    await prisma.$transaction(async (tx) => {
      const [held] = await lockAndLoadAccess(tx, c.id);
      await applyAccessPlan(
        tx,
        c.id,
        {
          creates: [],
          replaces: [{ prior: held!, next: { ...held!, siteCodes: ['MA037'], accessEndDate: undefined } }],
          removals: [],
          stale: [],
        },
        { username: 'admin' },
      );
    });
    const summary = await resultOf(workflowId);
    expect(summary).toMatchObject({ status: 'CLOSED', itemsTotal: 3, kept: 1, removed: 1, changed: 1 });
    const items = await itemsOf(prisma, campaign.id);
    expect(items.map((i) => [i.accessId, i.decision, i.defaulted, i.outcome])).toEqual([
      [ra.id, 'REMOVE', true, 'REMOVED'],
      [rb.id, 'KEEP', false, 'KEPT'],
      [rc.id, 'REMOVE', false, 'CHANGED'],
    ]);
    expect(await prisma.userAccess.count({ where: { portalUserId: a.id, inactive: false } })).toBe(0);
    expect(await prisma.userAccess.findMany({ where: { portalUserId: c.id, inactive: false } })).toEqual([
      expect.objectContaining({ priorAccessControlId: rc.id, siteCodes: ['MA037'] }),
    ]);
    expect(await accessAudit(prisma, c.id, 'ACCESS_REMOVED_BY_REVIEW')).toEqual([]);
    const [defaulted] = await accessAudit(prisma, a.id, 'ACCESS_REMOVED_BY_REVIEW');
    expect(defaulted).toMatchObject({ actorUsername: 'system' });
    expect(defaulted!.after).toMatchObject({ defaulted: true });
    await until(async () => (await mailsTo(a.email, 'your access was removed')).length === 1, 'the removal mail');
    await record(workflowId, 'deadline-default-remove-changed');
  });

  it('takes a close sent while the campaign is being opened (the row may already say OPEN) and closes once open', async () => {
    const role = tag('Role ');
    const p = await person(prisma, 'opening');
    await grant(prisma, p, role);
    const campaign = await fileCampaign(prisma, { scope: { roleNames: [role] } });
    // The campaign row held: opening it (STARTING → OPEN) waits.
    const release = await holdCampaignRow(prisma, campaign.id);
    // The helper's own row update (workflowStartedAt) waits for the hold too: not awaited until released.
    const started = startCampaign(prisma, env.client, queue, campaign);
    try {
      const workflowId = accessReviewWorkflowId(campaign.id);
      const handle = handleOf(workflowId);
      await until(async () => {
        const pending = await handle.describe().then(
          (d) => d.raw.pendingActivities ?? [],
          () => [], // not started yet
        );
        return pending.some((a) => a.activityType?.name === 'openAccessReview');
      }, 'the opening activity under way');
      expect(await handle.executeUpdate(closeAccessReviewUpdate, { args: [{ username: 'admin' }] })).toEqual({
        status: 'CLOSING',
      });
      await release();
      await started;
      expect(await resultOf(workflowId)).toMatchObject({ status: 'CLOSED' });
      expect(await campaignRow(prisma, campaign.id)).toMatchObject({ status: 'CLOSED', closedByUsername: 'admin' });
    } finally {
      await release();
      await started.catch(() => undefined);
    }
  });

  it("closes early by an ADMIN's update, then refuses a second close and a cancel", async () => {
    const role = tag('Role ');
    const p = await person(prisma, 'early');
    const r = await grant(prisma, p, role);
    const campaign = await fileCampaign(prisma, { scope: { roleNames: [role] } });
    const workflowId = await startCampaign(prisma, env.client, queue, campaign);
    await statusReached(prisma, campaign.id, 'OPEN');
    await decide(prisma, campaign.id, [r.id], 'REMOVE', 'admin');
    const handle = handleOf(workflowId);
    expect(await handle.executeUpdate(closeAccessReviewUpdate, { args: [{ username: 'admin' }] })).toEqual({
      status: 'CLOSING',
    });
    expect(await refusal(handle.executeUpdate(closeAccessReviewUpdate, { args: [{ username: 'admin' }] }))).toBe(
      ACCESS_REVIEW_MESSAGES.alreadyClosing,
    );
    expect(await refusal(handle.executeUpdate(cancelAccessReviewUpdate, { args: [{ username: 'admin' }] }))).toBe(
      ACCESS_REVIEW_MESSAGES.alreadyClosing,
    );
    expect(await resultOf(workflowId)).toMatchObject({ status: 'CLOSED', removed: 1 });
    expect(await campaignRow(prisma, campaign.id)).toMatchObject({ status: 'CLOSED', closedByUsername: 'admin' });
    expect(await prisma.userAccess.count({ where: { portalUserId: p.id, inactive: false } })).toBe(0);
    expect((await handle.query(accessReviewProgressQuery)).phase).toBe('CLOSED');
    await record(workflowId, 'closed-early');
  });

  it('cancels an open campaign: nothing removed, CANCELLED, and a later close refused', async () => {
    const role = tag('Role ');
    const p = await person(prisma, 'cancel');
    const r = await grant(prisma, p, role);
    const campaign = await fileCampaign(prisma, { scope: { roleNames: [role] }, defaultDecision: 'REMOVE' });
    const workflowId = await startCampaign(prisma, env.client, queue, campaign);
    await statusReached(prisma, campaign.id, 'OPEN');
    await decide(prisma, campaign.id, [r.id], 'REMOVE', 'admin');
    const handle = handleOf(workflowId);
    expect(await handle.executeUpdate(cancelAccessReviewUpdate, { args: [{ username: 'admin' }] })).toEqual({
      status: 'CANCELLED',
    });
    expect(await resultOf(workflowId)).toMatchObject({ status: 'CANCELLED', removed: 0 });
    expect(await campaignRow(prisma, campaign.id)).toMatchObject({ status: 'CANCELLED', closedByUsername: 'admin' });
    expect(await prisma.userAccess.count({ where: { portalUserId: p.id, inactive: false } })).toBe(1);
    expect(
      await prisma.auditEvent.count({
        where: { entityType: 'AccessReview', entityId: String(campaign.id), action: 'CANCELLED' },
      }),
    ).toBe(1);
    await record(workflowId, 'cancelled');
  });

  it('refuses a close while the items are stored, and takes a cancel then', async () => {
    const role = tag('Role ');
    const p = await person(prisma, 'snapcancel');
    const r = await grant(prisma, p, role);
    const campaign = await fileCampaign(prisma, { scope: { roleNames: [role] } });
    const release = await holdItemSlot(prisma, campaign.id, r);
    try {
      const workflowId = await startCampaign(prisma, env.client, queue, campaign);
      await until(() => someoneWaits(prisma, 'transactionid'), 'the snapshot batch at the held record');
      const handle = handleOf(workflowId);
      expect(await refusal(handle.executeUpdate(closeAccessReviewUpdate, { args: [{ username: 'admin' }] }))).toBe(
        ACCESS_REVIEW_CLOSE_DURING_SNAPSHOT,
      );
      expect(await handle.executeUpdate(cancelAccessReviewUpdate, { args: [{ username: 'admin' }] })).toEqual({
        status: 'CANCELLED',
      });
      await release();
      expect(await resultOf(workflowId)).toMatchObject({ status: 'CANCELLED' });
      expect((await campaignRow(prisma, campaign.id)).status).toBe('CANCELLED');
      await record(workflowId, 'cancelled-during-snapshot');
    } finally {
      await release();
    }
  });

  it('closes at once a campaign with no items', async () => {
    const campaign = await fileCampaign(prisma, { scope: { roleNames: [tag('Nobody ')] } });
    const workflowId = await startCampaign(prisma, env.client, queue, campaign);
    expect(await resultOf(workflowId)).toMatchObject({ status: 'CLOSED', itemsTotal: 0 });
    expect((await campaignRow(prisma, campaign.id)).status).toBe('CLOSED');
  });
});

describe('recurring campaigns and the reconciler', () => {
  it('the scheduled workflow files one campaign per run and starts it as a child; an inactive schedule files none', async () => {
    const role = tag('Role ');
    const p = await person(prisma, 'sched');
    await grant(prisma, p, role);
    const admin = await prisma.portalUser.findUniqueOrThrow({ where: { username: 'admin' } });
    const schedule = await prisma.accessReviewSchedule.create({
      data: {
        name: tag('Quarterly '),
        scope: { systemAccessIds: [], roleNames: [role], laoIds: [] },
        reviewers: 'LAO_STAFF',
        durationDays: 14,
        reminderEveryDays: 0,
        defaultDecision: 'KEEP',
        everyDays: 90,
        createdByUserId: admin.id,
      },
    });
    const runId = `${queue}-scheduled-1`;
    const result = await env.client.workflow.execute(ACCESS_REVIEW_SCHEDULED_WORKFLOW_TYPE, {
      taskQueue: queue,
      workflowId: runId,
      args: [{ scheduleId: schedule.id, duration: '2 seconds', reminderEvery: null }],
    });
    const campaignId = (result as { campaignId: number }).campaignId;
    const row = await campaignRow(prisma, campaignId);
    expect(row).toMatchObject({ name: schedule.name, scheduleId: schedule.id, createdByUsername: 'admin' });
    expect(row.workflowStartedAt).not.toBeNull();
    const child = handleOf(row.workflowId);
    expect(await child.result()).toMatchObject({ status: 'CLOSED', itemsTotal: 1, kept: 1 });
    const described = await child.describe();
    expect(described.typedSearchAttributes.get({ name: 'AccessReviewId', type: 'KEYWORD' } as never)).toBe(
      String(campaignId),
    );
    await maybeRecordHistory({ client: env.client }, runId, 'access-review', 'scheduled-run');
    // A retried filing of the same run answers the same campaign, whose mails are retried for the worker's
    // MAIL_DEADLINE as a campaign the API starts (not the workflow's short default).
    const activities = createActivities(prisma, testMailSettings(), undefined, undefined, {
      ACCESS_REVIEW_STUDY_ROLE: 'LAO Staff',
      mailDeadline: '36 hours',
    });
    const again = await activities.fileScheduledAccessReview({ scheduleId: schedule.id, runKey: runId });
    expect(again?.campaignId).toBe(campaignId);
    expect(again?.args[0]).toMatchObject({ campaignId, mailDeadline: '36 hours' });
    expect(await prisma.accessReviewCampaign.count({ where: { scheduleId: schedule.id } })).toBe(1);
    // Inactive: nothing filed.
    await prisma.accessReviewSchedule.update({ where: { id: schedule.id }, data: { inactive: true } });
    const none = await env.client.workflow.execute(ACCESS_REVIEW_SCHEDULED_WORKFLOW_TYPE, {
      taskQueue: queue,
      workflowId: `${queue}-scheduled-2`,
      args: [{ scheduleId: schedule.id }],
    });
    expect(none).toEqual({ campaignId: null });
    expect(await prisma.accessReviewCampaign.count({ where: { scheduleId: schedule.id } })).toBe(1);
  });

  it('the reconciler starts a campaign whose start was never confirmed, marks and audits it', async () => {
    const role = tag('Role ');
    const p = await person(prisma, 'recon');
    await grant(prisma, p, role);
    const campaign = await fileCampaign(prisma, { scope: { roleNames: [role] }, ageMs: 120_000 });
    const repaired = await reconcileUnstartedRequests({
      prisma,
      client: env.client,
      taskQueue: queue,
      graceMs: 60_000,
    });
    expect(repaired).toContain(campaign.workflowId);
    expect((await campaignRow(prisma, campaign.id)).workflowStartedAt).not.toBeNull();
    expect(
      await prisma.auditEvent.count({
        where: { entityType: 'AccessReview', entityId: String(campaign.id), action: 'WORKFLOW_RECONCILED' },
      }),
    ).toBe(1);
    await statusReached(prisma, campaign.id, 'OPEN');
    const handle = handleOf(campaign.workflowId);
    const described = await handle.describe();
    expect(described.typedSearchAttributes.get({ name: 'RequestType', type: 'KEYWORD' } as never)).toBe(
      'ACCESS_REVIEW',
    );
    // A second pass finds it marked: nothing more.
    expect(
      await reconcileUnstartedRequests({ prisma, client: env.client, taskQueue: queue, graceMs: 60_000 }),
    ).not.toContain(campaign.workflowId);
    await handle.executeUpdate(cancelAccessReviewUpdate, { args: [{ username: 'admin' }] });
    await handle.result();
  });
});
