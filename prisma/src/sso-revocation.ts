/**
 * Taking access away takes single sign-on away (issue 22): the person's grants at the single sign-on provider
 * (oidc-provider's `Grant` rows in `OidcPayload`, with every code, access token and refresh token issued under
 * them) are deleted for the systems they lost, in the transaction of the change. Called by the one writer of
 * access records (`applyAccessPlan`), so every removal path (reviews, the admin's Access tab, later expiry and
 * recertification) revokes without knowing about single sign-on; deactivation and a password set through a
 * reset link revoke every system. A system's next refresh then fails and its next sign-in asks the portal.
 * Each system with a back-channel logout URI is owed a logout token: an `SsoLogoutNotice` row in the same
 * transaction, sent by the worker (`sso-logout-<id>`, started on the commit's notification, or by its
 * reconciler when no worker listened) so a system that is down never blocks the change. Signing out of single
 * sign-on (the portal's sign-out, or a system's RP-initiated logout) owes the same token, written the same way.
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

/**
 * Writes one logout notice per client of `clientIds` that registered a back-channel logout URI, for the person
 * `subjectId`, and notifies the worker (on commit, when `tx` is a transaction). @returns how many were written.
 */
export async function writeLogoutNotices(tx: Tx, subjectId: string, clientIds: readonly string[]): Promise<number> {
  if (!clientIds.length) return 0;
  const notices = await tx.$executeRaw`
    INSERT INTO "SsoLogoutNotice" ("clientId", "subjectId")
    SELECT c."clientId", ${subjectId}::uuid FROM "SsoClient" c
     WHERE c."clientId" = ANY(${[...new Set(clientIds)]}::text[]) AND c."backchannelLogoutUri" IS NOT NULL`;
  if (notices) await tx.$executeRaw`SELECT pg_notify(${SSO_LOGOUT_CHANNEL}, '')`;
  return notices;
}

/**
 * The person signed out of the portal, so out of single sign-on: their provider sessions end (a system's
 * silent sign-in then asks the portal again), the grants those sessions hold end unless the system was granted
 * offline access (as the provider's own logout does), and each system signed in to through them is owed a
 * logout token. Run in one transaction. @returns the systems' client ids told.
 */
export async function endSsoSessions(tx: Tx, portalUserId: number): Promise<string[]> {
  const rows = await tx.$queryRaw<
    Array<{ id: string; subjectId: string; clientId: string | null; grantId: string | null; persists: boolean }>
  >`
    SELECT s."id", s."payload"->>'accountId' AS "subjectId", a.key AS "clientId", a.value->>'grantId' AS "grantId",
           COALESCE(a.value->>'persistsLogout' = 'true', false) AS "persists"
      FROM "OidcPayload" s
      LEFT JOIN LATERAL jsonb_each(
        CASE WHEN jsonb_typeof(s."payload"->'authorizations') = 'object' THEN s."payload"->'authorizations' END
      ) a ON true
     WHERE s."kind" = 'Session'
       AND s."payload"->>'accountId' = (SELECT "subjectId"::text FROM "PortalUser" WHERE "id" = ${portalUserId})`;
  if (!rows.length) return [];
  const clientIds = [...new Set(rows.flatMap((r) => (r.clientId ? [r.clientId] : [])))];
  const grants = [...new Set(rows.flatMap((r) => (r.grantId && !r.persists ? [r.grantId] : [])))];
  await writeLogoutNotices(tx, rows[0]!.subjectId, clientIds);
  if (grants.length) {
    await tx.$executeRaw`
      DELETE FROM "OidcPayload"
       WHERE "grantId" = ANY(${grants}::text[]) OR ("kind" = 'Grant' AND "id" = ANY(${grants}::text[]))`;
  }
  await tx.$executeRaw`DELETE FROM "OidcPayload" WHERE "kind" = 'Session' AND "id" = ANY(${rows.map((r) => r.id)}::text[])`;
  return clientIds;
}
