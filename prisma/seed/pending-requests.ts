/**
 * Demo requests left pending (issue 23), so the review queue is not empty on a fresh start: public
 * registrations, access-change requests (own, and one filed by the LAO staff persona for a user of their LAO)
 * and profile changes (name, email) of generated users, filed a few days ago. Only the rows are written,
 * as filing writes them (the access changes through the one filing module, `fileAccessChange`), with their
 * CREATED audit rows and no confirmed workflow start: the worker's reconciler starts each one's workflow
 * (rule 1 "commit, then start") on its first pass, which finds rows older than its grace period. Runs once per
 * database (its own SeedRun record), also on a database seeded before.
 */
import { type AccessControl, PORTAL_RULES_DEFAULTS } from '@portal/contract';
import { type Prisma, type PrismaClient, fileAccessChange, lockFiling, prismaRunner, recordAudit } from '../src';

export const PENDING_SEED_NAME = 'pending-requests-v1';

/**
 * The workflow ids the rows carry. The workflows package owns the format (`workflowIdOf`), which this package
 * cannot import; the reconciler starts each workflow under the id it computes from the kind, and
 * tests/integration/seed-pending-requests.test.ts checks that these are the same.
 */
export const SEEDED_WORKFLOW_IDS = {
  registration: (id: number) => `registration-${id}`,
  accessChange: (id: number) => `access-change-${id}`,
  profileChange: (id: number) => `profile-change-${id}`,
};

const DAY_MS = 86_400_000;
const EMAIL_DOMAIN = 'pending.demo.portal.test';

/** The public registrations: visitors asking for an account with the access of an existing record's block. */
const VISITORS = [
  { firstName: 'Amara', lastName: 'Okafor', jobTitle: 'Research Nurse', comment: 'Joining the cardiology study.' },
  { firstName: 'Jonas', lastName: 'Lindqvist', jobTitle: 'Data Coordinator', comment: '' },
  { firstName: 'Priya', lastName: 'Raman', jobTitle: 'Study Pharmacist', comment: 'New site pharmacist.' },
];

/** What the seed wrote: the rows' ids by kind. */
export interface PendingSeeded {
  registrations: number[];
  accessChanges: number[];
  profileChanges: number[];
}

const blockOf = (a: {
  roleName: string;
  siteCodes: string[];
  laoIds: string[];
  studyNames: string[];
  systemAccessIds: number[];
}): AccessControl => ({
  roleName: a.roleName,
  siteCodes: a.siteCodes,
  laoIds: a.laoIds,
  studyNames: a.studyNames,
  systemAccessIds: a.systemAccessIds,
});

/** The next id of `table`'s serial, so the row is written with its workflow id in one insert. */
async function nextId(tx: Prisma.TransactionClient, table: string): Promise<number> {
  const [{ id }] = await tx.$queryRawUnsafe<[{ id: bigint }]>(
    `SELECT nextval(pg_get_serial_sequence('"${table}"', 'id')) AS id`,
  );
  return Number(id);
}

/**
 * Seeds the pending requests once; `now` dates them (each a day or more before it).
 * @returns the ids written, or null when this seed ran before or the database has no generated users.
 */
export async function seedPendingRequests(
  prisma: PrismaClient,
  log: (line: string) => void,
  now = new Date(),
): Promise<PendingSeeded | null> {
  if (await prisma.seedRun.findUnique({ where: { name: PENDING_SEED_NAME } })) return null;
  // Generated users (never the personas, whose journeys start from no open request) holding one record.
  const people = await prisma.portalUser.findMany({
    where: {
      inactive: false,
      email: { endsWith: '@example.org' },
      userAccesses: { some: { inactive: false } },
      subjectRequests: { none: {} },
      profileChangeRequests: { none: {} },
    },
    include: { userAccesses: { where: { inactive: false }, orderBy: { id: 'asc' } } },
    orderBy: { id: 'asc' },
    take: 5,
  });
  const laostaff = await prisma.portalUser.findUnique({
    where: { username: 'laostaff' },
    include: { userAccesses: { where: { inactive: false } } },
  });
  if (people.length < 5) return null;
  log('seeding pending requests (registrations, access changes, profile changes) for the review queue');
  const daysAgo = (n: number) => new Date(now.getTime() - n * DAY_MS);
  const seeded: PendingSeeded = { registrations: [], accessChanges: [], profileChanges: [] };
  const audit = (entityType: string, entityId: number, workflowId: string, after: Prisma.InputJsonValue) => ({
    entityType,
    entityId,
    action: 'CREATED',
    after,
    workflowId,
    idempotencyKey: `${workflowId}:0`,
  });
  const seed = { userId: null, username: 'seed' };

  await prisma.$transaction(async (tx) => {
    for (const [i, v] of VISITORS.entries()) {
      const id = await nextId(tx, 'Registration');
      const workflowId = SEEDED_WORKFLOW_IDS.registration(id);
      const email = `${v.firstName}.${v.lastName}@${EMAIL_DOMAIN}`.toLowerCase();
      const accessControls = [{ ...blockOf(people[i]!.userAccesses[0]!), questionNum: 1 }];
      await tx.registration.create({
        data: {
          id,
          workflowId,
          firstName: v.firstName,
          lastName: v.lastName,
          jobTitle: v.jobTitle,
          organizationName: people[i]!.organizationName,
          phoneNumber: `55501${String(i).padStart(5, '0')}`,
          email,
          accessControls,
          requesterComments: v.comment,
          lastModifiedBy: 'public',
          sysdat: daysAgo(i + 1),
        },
      });
      await recordAudit(tx, seed, audit('Registration', id, workflowId, { email, isProxy: false, accessControls }));
      seeded.registrations.push(id);
    }

    // Access changes through the filing module: two own CHANGE requests with a comment, and one filed by the
    // LAO staff persona for a user at one of their sites when the demo network has one.
    const filings = [
      { subject: people[0]!, proxy: null, comment: 'Please add me to the new study at my site.' },
      { subject: people[1]!, proxy: null, comment: 'I moved to another role; please update my systems.' },
    ];
    // Within the proxy's reach (000 §6 own sites): at their LAOs, or at the AOs of those LAOs or their own.
    const laoCodes = laostaff?.userAccesses.flatMap((a) => a.laoIds) ?? [];
    const relations = await tx.siteRelation.findMany({
      where: { laoCode: { in: laoCodes }, active: true },
      select: { siteCode: true },
    });
    const aoCodes = [
      ...(laostaff?.userAccesses.flatMap((a) => a.siteCodes) ?? []),
      ...relations.map((r) => r.siteCode),
    ];
    const reachable = laostaff
      ? await tx.portalUser.findFirst({
          where: {
            inactive: false,
            email: { endsWith: '@example.org' },
            id: { notIn: people.map((p) => p.id) },
            subjectRequests: { none: {} },
            userAccesses: {
              some: {
                inactive: false,
                OR: [{ laoIds: { hasSome: laoCodes } }, { siteCodes: { hasSome: aoCodes } }],
              },
            },
          },
          include: { userAccesses: { where: { inactive: false }, orderBy: { id: 'asc' } } },
        })
      : null;
    for (const [n, f] of [
      ...filings,
      ...(reachable && laostaff ? [{ subject: reachable, proxy: laostaff, comment: 'Annual access review.' }] : []),
    ].entries()) {
      const requester = f.proxy ?? f.subject;
      await lockFiling(tx, 'ACCESS_CHANGE', f.subject.id);
      const result = await fileAccessChange(prismaRunner(tx), {
        caller: 'REQUEST',
        requestType: 'CHANGE',
        subjectUserId: f.subject.id,
        requester: { id: requester.id, username: requester.username },
        // The demo data is seeded before any marker is configured: the default one, which stays recognised.
        proxyCommentMarker: PORTAL_RULES_DEFAULTS.proxyCommentMarker,
        proxy: f.proxy && {
          id: f.proxy.id,
          name: `${f.proxy.firstName} ${f.proxy.lastName}`,
          email: f.proxy.email,
        },
        accessControls: [blockOf(f.subject.userAccesses[0]!)],
        requesterComments: f.comment,
        workflowIdOf: SEEDED_WORKFLOW_IDS.accessChange,
      });
      if (result.outcome !== 'FILED') throw new Error(`seed: access change not filed: ${JSON.stringify(result)}`);
      await tx.accessModRequest.update({ where: { id: result.request.id }, data: { sysdat: daysAgo(n + 2) } });
      seeded.accessChanges.push(result.request.id);
    }

    // Profile changes: a new last name, and a new email address.
    for (const [n, p] of people.slice(3, 5).entries()) {
      const id = await nextId(tx, 'ProfileChangeRequest');
      const workflowId = SEEDED_WORKFLOW_IDS.profileChange(id);
      const next =
        n === 0
          ? { firstName: p.firstName, lastName: `${p.lastName}-Moreau`.slice(0, 45), email: p.email }
          : { firstName: p.firstName, lastName: p.lastName, email: `${p.username}@${EMAIL_DOMAIN}` };
      await tx.profileChangeRequest.create({
        data: {
          id,
          workflowId,
          requestStatus: 'NEW',
          portalUserId: p.id,
          ...next,
          originalFirstName: p.firstName,
          originalLastName: p.lastName,
          originalEmail: p.email,
          requesterComments: n === 0 ? 'I married last month.' : 'My institution changed my address.',
          lastModifiedBy: p.username,
          sysdat: daysAgo(n + 1),
        },
      });
      await recordAudit(
        tx,
        { userId: p.id, username: p.username },
        {
          ...audit('ProfileChangeRequest', id, workflowId, { ...next, requestStatus: 'NEW' }),
          before: { firstName: p.firstName, lastName: p.lastName, email: p.email },
        },
      );
      seeded.profileChanges.push(id);
    }
    await tx.seedRun.create({ data: { name: PENDING_SEED_NAME } });
  });
  return seeded;
}
