/**
 * Shared setup of the access review campaign tests (issue 25): people and access records of a test's own
 * (a study role name or an LAO id unique to the test, so its campaign's scope holds only its records),
 * campaign rows filed as the API files them (row, CREATED audit row) and started through the one typed start
 * (`accessReviewStart` + `startOnce`) with shrunken durations, decisions written as a reviewer's would be,
 * waiting for a campaign's status, holding a snapshot batch at a known record, and the caught mails.
 */
import crypto from 'node:crypto';
import type { Client } from '@temporalio/client';
import { readMail, type CaughtMail } from '@portal/scripts';
import type { AccessReviewScope } from '@portal/contract';
import { type AccessReviewCampaign, type PortalUser, type PrismaClient, type UserAccess } from '@portal/db';
import {
  type AccessReviewInput,
  accessReviewInputOf,
  accessReviewStart,
  accessReviewWorkflowId,
  startOnce,
} from '@portal/workflows';
import { stackEnv } from '../fixtures';
import { until } from '../lifecycle/support';
import { holdTransaction } from '../../support/held-transaction';

export const tag = (prefix: string): string => `${prefix}${crypto.randomBytes(4).toString('hex')}`;

/** An active portal user without a directory entry (they never sign in), with `portalRoles` by description. */
export async function person(prisma: PrismaClient, name: string, portalRoles: string[] = ['Network User']) {
  const username = tag(`ar${name}`.toLowerCase().slice(0, 20));
  const roles = await prisma.portalRole.findMany({ where: { description: { in: portalRoles } } });
  return prisma.portalUser.create({
    data: {
      username,
      firstName: 'Review',
      lastName: name,
      email: `${username}@it.portal.test`,
      portalRoles: { create: roles.map((r) => ({ portalRoleId: r.id })) },
    },
  });
}

/** An active access record of `user` (content as given; no reference checks: the tests name their own roles). */
export const grant = (
  prisma: PrismaClient,
  user: PortalUser,
  roleName: string,
  extra: { laoIds?: string[]; siteCodes?: string[]; systemAccessIds?: number[] } = {},
): Promise<UserAccess> =>
  prisma.userAccess.create({
    data: {
      portalUserId: user.id,
      roleName,
      siteCodes: extra.siteCodes ?? [],
      laoIds: extra.laoIds ?? [],
      studyNames: [],
      systemAccessIds: extra.systemAccessIds ?? [],
      createdBy: 'test',
      lastModifiedBy: 'test',
    },
  });

export interface CampaignDefinition {
  name?: string;
  scope?: Partial<AccessReviewScope>;
  reviewers?: 'LAO_STAFF' | 'USER_SUPPORT';
  defaultDecision?: 'KEEP' | 'REMOVE';
  scheduleId?: number;
  /** Filed this long ago (the reconciler's grace). */
  ageMs?: number;
}

/** Files a campaign row as the API does (its id from the sequence, its workflow id, the CREATED audit row). */
export async function fileCampaign(prisma: PrismaClient, def: CampaignDefinition = {}): Promise<AccessReviewCampaign> {
  const [{ id }] = await prisma.$queryRaw<[{ id: number }]>`
    SELECT nextval(pg_get_serial_sequence('"AccessReviewCampaign"', 'id'))::int AS id`;
  const campaign = await prisma.accessReviewCampaign.create({
    data: {
      id,
      workflowId: accessReviewWorkflowId(id),
      name: def.name ?? tag('Campaign '),
      scope: { systemAccessIds: [], roleNames: [], laoIds: [], ...def.scope },
      reviewers: def.reviewers ?? 'LAO_STAFF',
      durationDays: 14,
      reminderEveryDays: 3,
      defaultDecision: def.defaultDecision ?? 'KEEP',
      scheduleId: def.scheduleId ?? null,
      createdByUsername: 'admin',
      ...(def.ageMs ? { sysdat: new Date(Date.now() - def.ageMs) } : {}),
    },
  });
  await prisma.auditEvent.create({
    data: {
      actorUsername: 'admin',
      entityType: 'AccessReview',
      entityId: String(id),
      action: 'CREATED',
      after: { name: campaign.name },
      workflowId: campaign.workflowId,
    },
  });
  return campaign;
}

/** Starts the campaign's workflow on `taskQueue` (shrunken durations by `input`) and marks it started. */
export async function startCampaign(
  prisma: PrismaClient,
  client: Client,
  taskQueue: string,
  campaign: AccessReviewCampaign,
  input: Partial<AccessReviewInput> = {},
): Promise<string> {
  const opts = { name: campaign.name, durationDays: 14, reminderEveryDays: 3, createdByLabel: 'admin' };
  const start = accessReviewStart(campaign.id, opts, {
    ...accessReviewInputOf(campaign.id, opts),
    duration: '1 hour',
    reminderEvery: null,
    mailDeadline: '20 seconds',
    ...input,
  });
  await startOnce(client, taskQueue, start);
  await prisma.accessReviewCampaign.update({ where: { id: campaign.id }, data: { workflowStartedAt: new Date() } });
  return start.workflowId;
}

export const campaignRow = (prisma: PrismaClient, id: number) =>
  prisma.accessReviewCampaign.findUniqueOrThrow({ where: { id } });

/** Waits until the campaign's status is `status`. @returns the row. */
export async function statusReached(
  prisma: PrismaClient,
  id: number,
  status: AccessReviewCampaign['status'],
  timeoutMs = 60_000,
): Promise<AccessReviewCampaign> {
  await until(async () => (await campaignRow(prisma, id)).status === status, `campaign ${id} ${status}`, timeoutMs);
  return campaignRow(prisma, id);
}

export const itemsOf = (prisma: PrismaClient, campaignId: number) =>
  prisma.accessReviewItem.findMany({ where: { campaignId }, orderBy: { accessId: 'asc' } });

/** Decides items as a reviewer's call would (the decision columns), by `username`. */
export async function decide(
  prisma: PrismaClient,
  campaignId: number,
  accessIds: number[],
  decision: 'KEEP' | 'REMOVE',
  username = 'laostaff',
): Promise<void> {
  const n = await prisma.accessReviewItem.updateMany({
    where: { campaignId, accessId: { in: accessIds } },
    data: {
      decision,
      comment: decision === 'REMOVE' ? 'No longer on the study.' : null,
      decidedByUsername: username,
      decidedAt: new Date(),
    },
  });
  if (n.count !== accessIds.length) throw new Error(`decided ${n.count} of ${accessIds.length} items`);
}

/** Caught mails to `to` whose subject contains `subjectPart`. */
export const mailsTo = async (to: string, subjectPart: string): Promise<CaughtMail[]> =>
  (await readMail(stackEnv().MAIL_API_URL!)).filter(
    (m) => m.to.some((t) => t.address === to) && m.subject.includes(subjectPart),
  );

/** The audit rows of `action` about a person's access records (entityType UserAccess). */
export const accessAudit = (prisma: PrismaClient, portalUserId: number, action: string) =>
  prisma.auditEvent.findMany({
    where: { entityType: 'UserAccess', entityId: String(portalUserId), action },
    orderBy: { id: 'asc' },
  });

/**
 * The held item's reviewing pool: one no snapshot writes. The item counts' trigger adds the held row to the
 * count of (campaign, pool, decision, slot), the slot being the backend pid modulo 16; with the snapshot's
 * pool ('{}') a snapshot whose backend shared the slot (1 run in 16) waited on the held count row instead of
 * at the held record, before storing any item.
 */
const HELD_POOL = ['held-by-the-test'];

/**
 * Holds the item slot (campaign, access record) in an open transaction: the snapshot batch that reaches that
 * record waits inside its activity (ON CONFLICT waits for the open insert) until the release, which rolls it back.
 * @returns the release (idempotent) once held. @throws when the slot could not be held (the transaction ended
 * before its insert: a test waiting for the snapshot to stop there would otherwise wait out its deadline).
 */
export async function holdItemSlot(
  prisma: PrismaClient,
  campaignId: number,
  access: UserAccess,
): Promise<() => Promise<void>> {
  return holdTransaction(
    prisma,
    (t) => t.$executeRaw`
      INSERT INTO "AccessReviewItem" ("campaignId", "accessId", "portalUserId", username, "firstName", "lastName",
             email, "roleName", "siteCodes", "laoIds", "studyNames", "systemAccessIds", "reviewLaoIds")
      VALUES (${campaignId}, ${access.id}, ${access.portalUserId}, 'held', 'Held', 'Held', 'held@it.portal.test',
             ${access.roleName}, '{}', '{}', '{}', '{}', ${HELD_POOL}::text[])`,
  );
}

/** Holds the campaign's row (not its key: the items reference it) until the release: its updates wait. */
export const holdCampaignRow = (prisma: PrismaClient, campaignId: number) =>
  holdTransaction(
    prisma,
    (t) => t.$queryRaw`SELECT 1 FROM "AccessReviewCampaign" WHERE id = ${campaignId} FOR NO KEY UPDATE`,
  );

/** True when a session waits for a held item slot (the snapshot batch that reached it). */
export async function someoneWaits(prisma: PrismaClient, locktype: 'transactionid'): Promise<boolean> {
  const [row] = await prisma.$queryRaw<[{ n: number }]>`
    SELECT count(*)::int AS n FROM pg_locks WHERE locktype = ${locktype} AND NOT granted`;
  return row.n > 0;
}

/**
 * What the database's other sessions are doing, for a failure message: each active or waiting statement's
 * state, wait event, seconds running and first words (a snapshot that never stores its first batch is told
 * apart: waiting on a lock, running a long scan, or not running at all).
 */
export async function busyStatements(prisma: PrismaClient): Promise<string> {
  const rows = await prisma.$queryRaw<Array<{ state: string; wait: string | null; secs: number; query: string }>>`
    SELECT state, wait_event_type || ':' || wait_event AS wait,
           extract(epoch FROM now() - query_start)::int AS secs, left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 90) AS query
      FROM pg_stat_activity
     WHERE pid <> pg_backend_pid() AND datname = current_database() AND state <> 'idle'`;
  return rows.map((r) => `[${r.state} ${r.wait ?? '-'} ${r.secs}s] ${r.query}`).join(' | ') || 'no statement running';
}

export { holdUserLock, userLockWaits } from '../../support/filing-locks';

/** `n` people, each with one active record of every role of `roles` (one statement per table). */
export async function peopleWith(prisma: PrismaClient, n: number, roles: string[], name: string) {
  const prefix = tag(name);
  const users = await prisma.portalUser.createManyAndReturn({
    data: Array.from({ length: n }, (_, i) => ({
      username: `${prefix}${i}`,
      firstName: 'Review',
      lastName: `${name}${i}`,
      email: `${prefix}${i}@it.portal.test`,
    })),
  });
  await prisma.userAccess.createMany({
    data: users.flatMap((u) =>
      roles.map((roleName) => ({ portalUserId: u.id, roleName, createdBy: 'test', lastModifiedBy: 'test' })),
    ),
  });
  return users.sort((a, b) => a.id - b.id);
}
