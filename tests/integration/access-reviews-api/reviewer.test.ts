/**
 * The reviewers' routes of access review campaigns (issue 25) on the real stack: who sees which items (User
 * Support every item, LAO staff the items of their LAOs, nobody their own, 403 for someone who reviews nothing),
 * the page's order, filter and states, the changed-since-snapshot mark, decisions one by one and in bulk (by ids
 * and by filter), refusals per item, two reviewers on one item (last wins, both audited), a decision after the
 * campaign closed, and a closed campaign's items listed read-only with their outcome. Campaign rows and items are
 * written directly (support.ts); no workflow runs here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_REVIEW_MESSAGES, type AccessReviewItem, USER_SUPPORT_POOL } from '@portal/contract';
import type { AccessReviewCampaign, PortalUser, UserAccess } from '@portal/db';
import type { TestUser } from '../auth-helpers';
import { type Session, type TestApi, caller, signIn, startApi } from '../harness';
import { reviewerScopeOf, reviewsPerson } from '../../../api/src/shared/access-review-authority';
import { REVIEWER_ROLE, grant, itemsByAccess, laoReviewer, openCampaign, person, unique } from './support';

const ITEMS = '/rest/secure/access_review/items';
const MINE = '/rest/secure/access_review/mine';
const DECISIONS = '/rest/secure/access_review/decisions';

let api: TestApi;
let call: ReturnType<typeof caller>;
let support: Session;
let plain: Session;
let staffA: Session;
let staffB: Session;
const laoA = unique('LA');
const laoB = unique('LB');
let staffAUser: TestUser;
let campaign: AccessReviewCampaign;
let closed: AccessReviewCampaign;
let itemOf: Map<number, { id: number }>;
const rec: Record<string, UserAccess> = {};
const people: Record<string, PortalUser> = {};

beforeAll(async () => {
  api = await startApi();
  call = caller(api.app);
  const p = api.prisma;
  staffAUser = await laoReviewer(api, 'arstaffa', [laoA]);
  const staffBUser = await laoReviewer(api, 'arstaffb', [laoB]);
  for (const name of ['Aaa', 'Bbb', 'Ccc', 'Ddd', 'Eee']) people[name] = await person(p, name);
  const system = await p.systemAccess.findFirstOrThrow({ where: { inactive: false }, orderBy: { id: 'asc' } });
  rec.aliceDm = await grant(p, people.Aaa!, 'Data Manager', { laoIds: [laoA] });
  rec.aliceCra = await grant(p, people.Aaa!, 'Clinical Research Associate', {
    laoIds: [laoA],
    systemAccessIds: [system.id],
  });
  rec.bob = await grant(p, people.Bbb!, 'Data Manager', { laoIds: [laoB] });
  rec.carol = await grant(p, people.Ccc!, 'Data Manager', { siteCodes: ['AO1'] });
  rec.dave = await grant(p, people.Ddd!, 'Data Manager', { laoIds: [laoA, laoB] });
  rec.eve = await grant(p, people.Eee!, 'Data Manager', { laoIds: [laoA] });
  rec.ownA = (await p.userAccess.findFirstOrThrow({ where: { portalUserId: staffAUser.user.id } }))!;
  campaign = await openCampaign(p, Object.values(rec));
  itemOf = await itemsByAccess(p, campaign.id);
  // Eve's access changed after the snapshot: the record the item names is no longer active.
  await p.userAccess.update({ where: { id: rec.eve.id }, data: { inactive: true } });
  const frank = await person(p, 'Fff');
  closed = await openCampaign(p, [await grant(p, frank, 'Data Manager', { laoIds: [laoA] })], { status: 'CLOSED' });
  await p.accessReviewItem.updateMany({
    where: { campaignId: closed.id },
    data: { decision: 'REMOVE', comment: 'left', decidedByUsername: 'reviewer', outcome: 'REMOVED' },
  });
  [support, plain, staffA, staffB] = await Promise.all([
    signIn(api.app, 'reviewer'),
    signIn(api.app, 'user'),
    signIn(api.app, staffAUser.username, staffAUser.password),
    signIn(api.app, staffBUser.username, staffBUser.password),
  ]);
});

afterAll(async () => {
  await api?.close();
});

const idOf = (r: UserAccess) => itemOf.get(r.id)!.id;
const page = async (s: Session, query: string) => {
  const res = await call(s, 'GET', `${ITEMS}?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { content: AccessReviewItem[]; totalElements: number; totalPages: number; last: boolean };
};
const decide = (s: Session, body: Record<string, unknown>) =>
  call(s, 'POST', DECISIONS, { campaignId: campaign.id, ...body });

describe('who reviews what', () => {
  it('mine: a person who reviews nothing is no reviewer; LAO staff count their LAO’s items, not their own', async () => {
    expect((await call(plain, 'GET', MINE)).json()).toEqual({ reviewer: false, campaigns: [] });
    const mine = (await call(staffA, 'GET', MINE)).json();
    expect(mine.reviewer).toBe(true);
    // Alice twice, Dave, Eve: not Bob (LAO B), not Carol (User Support), not their own record.
    expect(mine.campaigns).toEqual([
      { id: campaign.id, name: campaign.name, deadline: campaign.deadline!.toISOString(), total: 4, undecided: 4 },
    ]);
    const all = (await call(support, 'GET', MINE)).json();
    expect(all.campaigns.find((c: { id: number }) => c.id === campaign.id)).toMatchObject({ total: 7 });
    // A closed campaign is not among the open ones.
    expect(all.campaigns.map((c: { id: number }) => c.id)).not.toContain(closed.id);
  });

  it('items: 403 for someone who reviews nothing, before the query is read', async () => {
    expect((await call(plain, 'GET', `${ITEMS}?campaignId=${campaign.id}`)).statusCode).toBe(403);
    expect((await call(plain, 'GET', `${ITEMS}?size=0`)).statusCode).toBe(403);
    expect((await call(support, 'GET', `${ITEMS}?size=0`)).statusCode).toBe(422);
  });

  it('LAO staff see their LAO’s items in person order, with systems, pools and the changed mark', async () => {
    const { content, totalElements } = await page(staffA, `campaignId=${campaign.id}`);
    expect(totalElements).toBe(4);
    expect(content.map((i) => [i.lastName, i.roleName])).toEqual([
      ['Aaa', 'Clinical Research Associate'],
      ['Aaa', 'Data Manager'],
      ['Ddd', 'Data Manager'],
      ['Eee', 'Data Manager'],
    ]);
    const system = await api.prisma.systemAccess.findFirstOrThrow({ where: { id: rec.aliceCra!.systemAccessIds[0] } });
    expect(content[0]).toMatchObject({
      id: idOf(rec.aliceCra!),
      campaignId: campaign.id,
      campaignName: campaign.name,
      accessId: rec.aliceCra!.id,
      portalUserId: people.Aaa!.id,
      laoIds: [laoA],
      pools: [laoA],
      systemNames: [system.systemName],
      studyNames: [],
      decision: null,
      changed: false,
      outcome: null,
    });
    expect(content[2]!.pools).toEqual([laoA, laoB]);
    expect(content[3]).toMatchObject({ lastName: 'Eee', changed: true });
  });

  it('User Support sees every item (the User Support pool too), LAO staff of another LAO only theirs', async () => {
    const all = await page(support, `campaignId=${campaign.id}&state=ALL`);
    expect(all.totalElements).toBe(7);
    expect(all.content.find((i) => i.accessId === rec.carol!.id)?.pools).toEqual([USER_SUPPORT_POOL]);
    const b = await page(staffB, `campaignId=${campaign.id}`);
    expect(b.content.map((i) => i.lastName)).toEqual(['Bbb', 'Ddd']);
  });

  it('pages, filters by name, username, email or role, and lists the open campaigns without campaignId', async () => {
    const second = await page(staffA, `campaignId=${campaign.id}&size=3&page=2`);
    expect(second).toMatchObject({ totalElements: 4, totalPages: 2, last: true });
    expect(second.content.map((i) => i.lastName)).toEqual(['Eee']);
    expect((await page(staffA, `campaignId=${campaign.id}&filter=clinical`)).content.map((i) => i.id)).toEqual([
      idOf(rec.aliceCra!),
    ]);
    expect((await page(staffA, `filter=${people.Ddd!.username}`)).content.map((i) => i.id)).toEqual([idOf(rec.dave!)]);
    expect((await page(staffA, `filter=pat%20ddd`)).totalElements).toBe(1);
    // Without campaignId: the open campaigns only (the closed one's item of LAO A is not listed).
    expect((await page(staffA, '')).content.map((i) => i.campaignId)).toEqual(Array(4).fill(campaign.id));
  });

  it('a closed campaign named by campaignId stays listed, read-only, with its outcomes', async () => {
    const { content } = await page(staffA, `campaignId=${closed.id}&state=ALL`);
    expect(content).toHaveLength(1);
    expect(content[0]).toMatchObject({ decision: 'REMOVE', outcome: 'REMOVED', comment: 'left' });
    // The campaign's own removal left the record inactive: that is its outcome, not a change since the snapshot.
    await api.prisma.userAccess.update({ where: { id: content[0]!.accessId }, data: { inactive: true } });
    const removed = (await page(staffA, `campaignId=${closed.id}&state=ALL`)).content[0];
    expect(removed).toMatchObject({ outcome: 'REMOVED', changed: false });
    const res = await call(staffA, 'POST', DECISIONS, {
      campaignId: closed.id,
      itemIds: [content[0]!.id],
      decision: 'KEEP',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().globalErrors).toEqual([ACCESS_REVIEW_MESSAGES.campaignClosed]);
  });
});

describe('decisions', () => {
  it('403 for someone who reviews nothing (even with a bad body); 422 for Remove without a comment', async () => {
    expect((await decide(plain, { itemIds: [idOf(rec.aliceDm!)], decision: 'KEEP' })).statusCode).toBe(403);
    expect((await decide(plain, { decision: 'nope' })).statusCode).toBe(403);
    const res = await decide(staffA, { itemIds: [idOf(rec.aliceDm!)], decision: 'REMOVE' });
    expect(res.statusCode).toBe(422);
    expect(res.json().fieldErrors).toEqual({ comment: ['required'] });
    const both = await decide(staffA, { itemIds: [idOf(rec.aliceDm!)], filter: {}, decision: 'KEEP' });
    expect(both.json().fieldErrors).toEqual({ itemIds: ['required'] });
    const unknown = await call(staffA, 'POST', DECISIONS, { campaignId: 2147483647, itemIds: [1], decision: 'KEEP' });
    expect(unknown.json().fieldErrors).toEqual({ campaignId: ['unknown'] });
    expect(
      await api.prisma.accessReviewItem.count({ where: { campaignId: campaign.id, decision: { not: null } } }),
    ).toBe(0);
  });

  it('refuses per item what the caller may not decide: another LAO, their own, another campaign, unknown', async () => {
    const closedItem = (await api.prisma.accessReviewItem.findFirstOrThrow({ where: { campaignId: closed.id } })).id;
    const tried = [idOf(rec.bob!), idOf(rec.ownA!), idOf(rec.aliceDm!), closedItem, 2147483647];
    const res = await decide(staffA, { itemIds: tried, decision: 'KEEP' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      decided: 1,
      refused: 4,
      results: tried.map((itemId) => ({
        itemId,
        ok: itemId === idOf(rec.aliceDm!),
        message: itemId === idOf(rec.aliceDm!) ? null : ACCESS_REVIEW_MESSAGES.notYourItem,
      })),
    });
    const items = await itemsByAccess(api.prisma, campaign.id);
    expect(items.get(rec.aliceDm!.id)).toMatchObject({
      decision: 'KEEP',
      decidedByUserId: staffAUser.user.id,
      decidedByUsername: staffAUser.username,
      defaulted: false,
    });
    expect(items.get(rec.bob!.id)!.decision).toBeNull();
    expect(items.get(rec.ownA!.id)!.decision).toBeNull();
    const audit = await api.prisma.auditEvent.findMany({
      where: { action: 'ACCESS_REVIEW_DECIDED', workflowId: campaign.workflowId },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      entityType: 'UserAccess',
      entityId: String(people.Aaa!.id),
      actorUserId: staffAUser.user.id,
      actorUsername: staffAUser.username,
      after: {
        accessId: rec.aliceDm!.id,
        itemId: idOf(rec.aliceDm!),
        campaignId: campaign.id,
        campaignName: campaign.name,
        decision: 'KEEP',
        comment: null,
      },
    });
  });

  it('decides an item changed since the snapshot, with the note that it removes nothing', async () => {
    const res = await decide(staffA, { itemIds: [idOf(rec.eve!)], decision: 'REMOVE', comment: 'Left the study' });
    expect(res.json().results).toEqual([
      { itemId: idOf(rec.eve!), ok: true, message: ACCESS_REVIEW_MESSAGES.changedSinceSnapshot },
    ]);
    expect((await page(staffA, `campaignId=${campaign.id}&state=REMOVE`)).content).toMatchObject([
      { lastName: 'Eee', decision: 'REMOVE', comment: 'Left the study', changed: true },
    ]);
  });

  it('two reviewers on one item: the last decision wins, both are audited', async () => {
    const item = idOf(rec.dave!);
    expect((await decide(staffA, { itemIds: [item], decision: 'KEEP' })).json().decided).toBe(1);
    expect((await decide(staffB, { itemIds: [item], decision: 'REMOVE', comment: 'Not at B' })).json().decided).toBe(1);
    const stored = await api.prisma.accessReviewItem.findUniqueOrThrow({ where: { id: item } });
    expect(stored).toMatchObject({
      decision: 'REMOVE',
      comment: 'Not at B',
      decidedByUsername: expect.stringMatching(/^tarstaffb/),
    });
    const audit = await api.prisma.auditEvent.findMany({
      where: { action: 'ACCESS_REVIEW_DECIDED', entityId: String(people.Ddd!.id) },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((a) => (a.after as { decision: string }).decision)).toEqual(['KEEP', 'REMOVE']);
  });

  it('by filter: only the caller’s items matching it (state and text), each audited', async () => {
    const res = await decide(staffB, { filter: { state: 'UNDECIDED' }, decision: 'KEEP' });
    expect(res.statusCode, res.body).toBe(200);
    // Bob's only: Dave's (LAO A and B) is decided already, nothing else is in LAO B.
    expect(res.json()).toEqual({
      decided: 1,
      refused: 0,
      results: [{ itemId: idOf(rec.bob!), ok: true, message: null }],
    });
    const text = await decide(support, { filter: { text: 'Pat Ccc', state: 'ALL' }, decision: 'KEEP' });
    expect(text.json().results.map((r: { itemId: number }) => r.itemId)).toEqual([idOf(rec.carol!)]);
    const undecided = await page(support, `campaignId=${campaign.id}`);
    expect(undecided.content.map((i) => i.id).sort()).toEqual([idOf(rec.aliceCra!), idOf(rec.ownA!)].sort());
    const kept = await page(support, `campaignId=${campaign.id}&state=KEEP`);
    expect(kept.content.map((i) => i.lastName)).toEqual(['Aaa', 'Bbb', 'Ccc']);
  });

  it('a decision after the campaign closed is refused with the message, and changes nothing', async () => {
    const other = await openCampaign(api.prisma, [
      await grant(api.prisma, people.Aaa!, 'Data Manager', { laoIds: [laoA] }),
    ]);
    const [item] = await api.prisma.accessReviewItem.findMany({ where: { campaignId: other.id } });
    // As the workflow's close does: the row leaves OPEN, so every later decision is refused.
    await api.prisma
      .$executeRaw`UPDATE "AccessReviewCampaign" SET status = 'CLOSING' WHERE id = ${other.id} AND status = 'OPEN'`;
    const res = await call(staffA, 'POST', DECISIONS, { campaignId: other.id, itemIds: [item!.id], decision: 'KEEP' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ fieldErrors: {}, globalErrors: [ACCESS_REVIEW_MESSAGES.campaignClosed] });
    expect((await api.prisma.accessReviewItem.findUniqueOrThrow({ where: { id: item!.id } })).decision).toBeNull();
  });

  it('a decision before the campaign opened (its items still being stored) is refused as not open yet', async () => {
    const starting = await openCampaign(
      api.prisma,
      [await grant(api.prisma, people.Aaa!, 'Data Manager', { laoIds: [laoA] })],
      { status: 'STARTING' },
    );
    const [item] = await api.prisma.accessReviewItem.findMany({ where: { campaignId: starting.id } });
    const res = await call(staffA, 'POST', DECISIONS, {
      campaignId: starting.id,
      itemIds: [item!.id],
      decision: 'KEEP',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ fieldErrors: {}, globalErrors: [ACCESS_REVIEW_MESSAGES.campaignStarting] });
    expect((await api.prisma.accessReviewItem.findUniqueOrThrow({ where: { id: item!.id } })).decision).toBeNull();
  });
});

describe('authority', () => {
  const actorOf = (u: TestUser, permissions: string[] = ['USER']) => ({ userId: u.user.id, permissions });

  it('reviewsPerson: LAO staff for people with an open item of their LAO, User Support for any, never oneself', async () => {
    const p = api.prisma;
    const staff = actorOf(staffAUser);
    expect(await reviewsPerson(p, REVIEWER_ROLE, staff, people.Aaa!.id)).toBe(true);
    expect(await reviewsPerson(p, REVIEWER_ROLE, staff, people.Bbb!.id)).toBe(false);
    expect(await reviewsPerson(p, REVIEWER_ROLE, staff, staffAUser.user.id)).toBe(false);
    // Frank's only item is in the closed campaign.
    const frank = (await p.accessReviewItem.findFirstOrThrow({ where: { campaignId: closed.id } })).portalUserId;
    expect(await reviewsPerson(p, REVIEWER_ROLE, staff, frank)).toBe(false);
    const userSupport = { userId: 2_000_000_000, permissions: ['WRITE_USERS', 'READ_USERS', 'USER'] };
    expect(await reviewsPerson(p, REVIEWER_ROLE, userSupport, people.Ccc!.id)).toBe(true);
    expect(await reviewerScopeOf(p, REVIEWER_ROLE, staff)).toEqual({ support: false, laoIds: [laoA] });
    // Another study role configured as the reviewers' role: the same person reviews nothing.
    expect(await reviewerScopeOf(p, 'Data Manager', staff)).toEqual({ support: false, laoIds: [] });
  });

  it('the demo laostaff (LAO Staff of MA036) decides an MA036 item, not another LAO’s', async () => {
    const p = api.prisma;
    const [ma, ny] = [await person(p, 'Mmm'), await person(p, 'Nnn')];
    const records = [
      await grant(p, ma, 'Data Manager', { laoIds: ['MA036'] }),
      await grant(p, ny, 'Data Manager', { laoIds: ['NY016'] }),
    ];
    const c = await openCampaign(p, records);
    const items = await itemsByAccess(p, c.id);
    const laostaff = await signIn(api.app, 'laostaff');
    const res = await call(laostaff, 'POST', DECISIONS, {
      campaignId: c.id,
      itemIds: records.map((r) => items.get(r.id)!.id),
      decision: 'KEEP',
    });
    expect(res.json().results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false]);
    const listed = await call(laostaff, 'GET', `${ITEMS}?campaignId=${c.id}&state=ALL`);
    expect(listed.json().content.map((i: AccessReviewItem) => i.lastName)).toEqual(['Mmm']);
  });
});

describe('several open campaigns', () => {
  it('without campaignId, their items are merged in person order, paged across campaigns', async () => {
    const p = api.prisma;
    const abe = await person(p, 'Aab');
    const second = await openCampaign(p, [await grant(p, abe, 'Data Manager', { laoIds: [laoA] })]);
    const all = await page(staffA, 'state=ALL&size=100');
    const mine = all.content.filter((i) => i.campaignId === campaign.id || i.campaignId === second.id);
    expect(mine.map((i) => [i.lastName, i.campaignId === second.id])).toEqual([
      ['Aaa', false],
      ['Aaa', false],
      ['Aab', true],
      ['Ddd', false],
      ['Eee', false],
    ]);
    const names = all.content.map((i) => `${i.lastName}\u0000${i.firstName}`);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const paged = [
      ...(await page(staffA, 'state=ALL&size=2&page=1')).content,
      ...(await page(staffA, 'state=ALL&size=2&page=2')).content,
      ...(await page(staffA, 'state=ALL&size=2&page=3')).content,
    ];
    expect(paged.map((i) => i.id)).toEqual(all.content.slice(0, 6).map((i) => i.id));
  });
});
