/**
 * Taking access away takes single sign-on away (issue 22): the person's grants at the single sign-on provider
 * (oidc-provider's `Grant` rows in `OidcPayload`, with every code, access token and refresh token issued under
 * them) are deleted for the systems they lost, in the transaction of the change. Called by the one writer of
 * access records (`applyAccessPlan`), so every removal path (reviews, the admin's Access tab, later expiry and
 * recertification) revokes without knowing about single sign-on; deactivation and a password set through a
 * reset link revoke every system. A system's next refresh then fails and its next sign-in asks the portal.
 * Each system with a back-channel logout URI is owed a logout token: an `SsoLogoutNotice` row in the same
 * transaction, sent by the worker (`sso-logout-<id>`, started on the commit's notification, or by its
 * reconciler when no worker listened) so a system that is down never blocks the change.
 */
import { Prisma } from '../generated/client/client';

/** The PostgreSQL channel notified when a revocation's transaction wrote logout notices. */
export const SSO_LOGOUT_CHANNEL = 'sso_logout_notice';

type Tx = Pick<Prisma.TransactionClient, '$executeRaw' | '$queryRaw'>;

/** The systems held through `portalUserId`'s active access records. */
export async function heldSystems(tx: Tx, portalUserId: number): Promise<Set<number>> {
  const rows = await tx.$queryRaw<Array<{ id: number }>>`
    SELECT DISTINCT unnest("systemAccessIds") AS id FROM "UserAccess"
     WHERE "portalUserId" = ${portalUserId} AND NOT "inactive"`;
  return new Set(rows.map((r) => r.id));
}

/**
 * Deletes `portalUserId`'s grants for the clients of `systemIds` (every client when null), and everything
 * issued under them. @returns how many grants were revoked.
 */
export async function revokeSsoAccess(
  tx: Tx,
  portalUserId: number,
  systemIds: readonly number[] | null,
): Promise<number> {
  if (systemIds && !systemIds.length) return 0;
  const clients = systemIds
    ? Prisma.sql`AND g."payload"->>'clientId' IN (SELECT "clientId" FROM "SsoClient" WHERE "systemAccessId" = ANY(${[...systemIds]}::int4[]))`
    : Prisma.empty;
  const grants = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT g."id" FROM "OidcPayload" g
     WHERE g."kind" = 'Grant'
       AND g."payload"->>'accountId' = (SELECT "subjectId"::text FROM "PortalUser" WHERE "id" = ${portalUserId})
       ${clients}`;
  if (!grants.length) return 0;
  const ids = grants.map((g) => g.id);
  const notices = await tx.$executeRaw`
    INSERT INTO "SsoLogoutNotice" ("clientId", "subjectId")
    SELECT DISTINCT c."clientId", (g."payload"->>'accountId')::uuid
      FROM "OidcPayload" g JOIN "SsoClient" c ON c."clientId" = g."payload"->>'clientId'
     WHERE g."kind" = 'Grant' AND g."id" = ANY(${ids}::text[]) AND c."backchannelLogoutUri" IS NOT NULL`;
  // Delivered by PostgreSQL only when this transaction commits: the worker listening starts the notices'
  // workflows at once; its reconciler starts any a listener missed.
  if (notices) await tx.$executeRaw`SELECT pg_notify(${SSO_LOGOUT_CHANNEL}, '')`;
  await tx.$executeRaw`
    DELETE FROM "OidcPayload" WHERE "grantId" = ANY(${ids}::text[]) OR ("kind" = 'Grant' AND "id" = ANY(${ids}::text[]))`;
  return ids.length;
}
