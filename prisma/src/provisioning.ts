/**
 * Provisioning's side of PostgreSQL (issue 41, docs/decisions.md "Provisioning"):
 * - `noteProvisioning`, called inside the transaction of every change to what a system should hold (the one
 *   access-records writer, activation and deactivation, a profile change's approval, a user-detail edit):
 *   one `ProvisioningNotice` per (enabled connection, person), the account marked PENDING, and a `pg_notify`
 *   that PostgreSQL delivers only when the change commits, as the back-channel logout notices do
 *   (sso-revocation.ts). The worker's listener signal-with-starts `provision-<system>-<subject>` from it.
 * - `wantedAccounts`: what a system should hold for some people (their core User attributes, active or not,
 *   and their study access at that system), read by the convergence and by reconciliation alike.
 */
import { Prisma } from '../generated/client/client';

/** The PostgreSQL channel notified when a transaction wrote provisioning notices. */
export const PROVISIONING_CHANNEL = 'provisioning_notice';
/** The purpose provisioning bearer tokens are sealed under (sealed.ts). */
export const PROVISIONING_SEAL_PURPOSE = 'provisioning-tokens';

type Tx = Pick<Prisma.TransactionClient, '$executeRaw' | '$queryRaw'>;

/**
 * Notes that `portalUserId`'s accounts at `systemIds` (null: every system the person holds now or was ever
 * provisioned to) may need converging, for the systems whose connection is enabled. Call it in the change's
 * transaction, after the change. @returns how many notices were written.
 */
export async function noteProvisioning(
  tx: Tx,
  portalUserId: number,
  systemIds: readonly number[] | null,
): Promise<number> {
  if (systemIds && !systemIds.length) return 0;
  const systems = systemIds
    ? Prisma.sql`c."systemAccessId" = ANY(${[...new Set(systemIds)]}::int4[])`
    : Prisma.sql`(c."systemAccessId" IN (SELECT unnest("systemAccessIds") FROM "UserAccess"
                   WHERE "portalUserId" = ${portalUserId} AND NOT "inactive")
              OR c."systemAccessId" IN (SELECT "systemAccessId" FROM "ProvisioningAccount"
                   WHERE "portalUserId" = ${portalUserId}))`;
  const rows = await tx.$queryRaw<Array<{ systemAccessId: number }>>`
    INSERT INTO "ProvisioningNotice" ("systemAccessId", "portalUserId")
    SELECT c."systemAccessId", ${portalUserId}::int4 FROM "ProvisioningConnection" c
     WHERE c."enabled" AND ${systems}
    RETURNING "systemAccessId"`;
  if (!rows.length) return 0;
  await tx.$executeRaw`
    INSERT INTO "ProvisioningAccount" ("systemAccessId", "portalUserId", "state", "changedAt")
    SELECT unnest(${rows.map((r) => r.systemAccessId)}::int4[]), ${portalUserId}::int4, 'PENDING', now()
    ON CONFLICT ("systemAccessId", "portalUserId") DO UPDATE SET "state" = 'PENDING', "changedAt" = now()`;
  await tx.$executeRaw`SELECT pg_notify(${PROVISIONING_CHANNEL}, '')`;
  return rows.length;
}

/**
 * Notes every person of system `systemAccessId` (holding it now, or provisioned to it before) when its connection
 * is turned on, so the accounts are made without waiting for each person's next change. Call it in the
 * connection's transaction, after the change. @returns how many notices were written (0 while it is off).
 */
export async function noteProvisioningForSystem(tx: Tx, systemAccessId: number): Promise<number> {
  const rows = await tx.$queryRaw<Array<{ portalUserId: number }>>`
    INSERT INTO "ProvisioningNotice" ("systemAccessId", "portalUserId")
    SELECT ${systemAccessId}::int4, p."id" FROM (
             SELECT DISTINCT "portalUserId" AS "id" FROM "UserAccess"
              WHERE NOT "inactive" AND ${systemAccessId}::int4 = ANY("systemAccessIds")
             UNION SELECT "portalUserId" FROM "ProvisioningAccount" WHERE "systemAccessId" = ${systemAccessId}) p
     WHERE EXISTS (SELECT 1 FROM "ProvisioningConnection" c WHERE c."systemAccessId" = ${systemAccessId} AND c."enabled")
    RETURNING "portalUserId"`;
  if (!rows.length) return 0;
  await tx.$executeRaw`
    INSERT INTO "ProvisioningAccount" ("systemAccessId", "portalUserId", "state", "changedAt")
    SELECT ${systemAccessId}::int4, unnest(${rows.map((r) => r.portalUserId)}::int4[]), 'PENDING', now()
    ON CONFLICT ("systemAccessId", "portalUserId") DO UPDATE SET "state" = 'PENDING', "changedAt" = now()`;
  await tx.$executeRaw`SELECT pg_notify(${PROVISIONING_CHANNEL}, '')`;
  return rows.length;
}

/** One study role held for one study at one organisation (site code or LAO id) at a system. */
export interface WantedStudyAccess {
  studyRole: string;
  study: string;
  organization: string;
}

/** What a system should hold for one person. */
export interface WantedAccount {
  portalUserId: number;
  /** The SCIM `externalId`: PortalUser.subjectId. */
  subjectId: string;
  userName: string;
  givenName: string;
  familyName: string;
  email: string;
  /** The person is active in the portal and holds access to the system. */
  active: boolean;
  /** Sorted by studyRole, study, organization. */
  access: WantedStudyAccess[];
}

interface WantedRow {
  portalUserId: number;
  subjectId: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  inactive: boolean;
  access: Array<{ roleName: string; studies: string[]; orgs: string[] }> | null;
}

const compareAccess = (a: WantedStudyAccess, b: WantedStudyAccess) =>
  a.studyRole.localeCompare(b.studyRole) ||
  a.study.localeCompare(b.study) ||
  a.organization.localeCompare(b.organization);

/**
 * The wanted accounts at `systemAccessId` of the people `where` selects (a SQL condition on `u`, the PortalUser
 * row), in the order of `u."id"`. A person without access to the system is wanted inactive.
 */
export async function wantedAccounts(
  db: Pick<Prisma.TransactionClient, '$queryRaw'>,
  systemAccessId: number,
  where: Prisma.Sql,
): Promise<WantedAccount[]> {
  const rows = await db.$queryRaw<WantedRow[]>`
    SELECT u."id" AS "portalUserId", u."subjectId"::text AS "subjectId", u."username", u."firstName", u."lastName",
           u."email", u."inactive",
           (SELECT json_agg(json_build_object('roleName', a."roleName", 'studies', a."studyNames",
                                              'orgs', a."siteCodes" || a."laoIds"))
              FROM "UserAccess" a
             WHERE a."portalUserId" = u."id" AND NOT a."inactive" AND ${systemAccessId}::int4 = ANY(a."systemAccessIds")
           ) AS "access"
      FROM "PortalUser" u
     WHERE ${where}
     ORDER BY u."id"`;
  return rows.map((r) => {
    const access: WantedStudyAccess[] = [];
    const seen = new Set<string>();
    for (const a of r.access ?? []) {
      const studies = a.studies.length ? a.studies : [''];
      const orgs = a.orgs.length ? a.orgs : [''];
      for (const study of studies)
        for (const organization of orgs) {
          const key = `${a.roleName}/${study}/${organization}`;
          if (seen.has(key)) continue;
          seen.add(key);
          access.push({ studyRole: a.roleName, study, organization });
        }
    }
    return {
      portalUserId: r.portalUserId,
      subjectId: r.subjectId,
      userName: r.username,
      givenName: r.firstName,
      familyName: r.lastName,
      email: r.email,
      active: !r.inactive && access.length > 0,
      access: access.sort(compareAccess),
    };
  });
}

/** The wanted account of one person at one system, or null when no such person exists. */
export async function wantedAccount(
  db: Pick<Prisma.TransactionClient, '$queryRaw'>,
  systemAccessId: number,
  portalUserId: number,
): Promise<WantedAccount | null> {
  const [one] = await wantedAccounts(db, systemAccessId, Prisma.sql`u."id" = ${portalUserId}`);
  return one ?? null;
}
