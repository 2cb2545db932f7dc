/**
 * The single sign-on client of a system (issue 22; Configure → Systems, 001 §2.12): read, create or change
 * (PUT), remove, and rotate its secret. Rules held here: the fixed 'Portal Gateway' system is the portal itself
 * and has no client (422); a client id belongs to one system (`unique`); a confidential client always has a
 * secret: a new one is issued when it is created or turned confidential, or on rotation, answered once in
 * plaintext and stored only as its digest (@portal/db client-secret.ts); a public client has none. Every
 * change writes one audit row (`SsoClient`, keyed by the system's id) without the secret or its digest. Removing
 * a client or changing its id ends the grants and tokens issued under the old id.
 */
import type { SsoClient, SsoClientBody, SsoClientSaved } from '@portal/contract';
import { ACR_LEVELS, CONFIG_MESSAGES, SSO_CLIENT_MESSAGES } from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';
import { notFound, notModified, unprocessable } from '../../http/errors';
import { type AuditActor, recordAudit } from '../../shared/audit-log';
import { hashClientSecret, newClientSecret } from '@portal/db';
import { TX_OPTIONS, type Tx, isUniqueViolation, lockConfig, sameSnapshot } from './common';

const ENTITY = 'SsoClient';
type SsoClientRow = Prisma.SsoClientGetPayload<object>;

/** A client row on the wire: never the secret's digest, only whether there is one. */
export const ssoClientView = (r: SsoClientRow): SsoClient => ({
  systemAccessId: r.systemAccessId,
  clientId: r.clientId,
  isPublic: r.isPublic,
  redirectUris: r.redirectUris,
  postLogoutRedirectUris: r.postLogoutRedirectUris,
  backchannelLogoutUri: r.backchannelLogoutUri,
  initiateLoginUri: r.initiateLoginUri,
  defaultAcr: ACR_LEVELS.find((l) => l === r.defaultAcr) ?? null,
  hasSecret: r.secretHash !== null,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** What the audit trail keeps of a client: the view without its timestamps (the row has its own time). */
function auditSnapshot(r: SsoClientRow) {
  const { createdAt: _created, updatedAt: _updated, ...rest } = ssoClientView(r);
  return rest;
}

/** The system `id`, refused when it is the fixed one. @throws 404 'Problem loading system.', 422 fixed. */
async function clientSystem(db: PrismaClient | Tx, id: number) {
  const system = await db.systemAccess.findUnique({ where: { id } });
  if (!system) throw notFound(CONFIG_MESSAGES.systems.load);
  if (system.fixed) throw unprocessable({}, [SSO_CLIENT_MESSAGES.fixedSystem]);
  return system;
}

/** One change, serialised with the other client changes; a client id taken meanwhile is `unique`. */
async function write<T>(prisma: PrismaClient, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await prisma.$transaction(async (tx) => {
      await lockConfig(tx, 'ssoClients');
      return work(tx);
    }, TX_OPTIONS);
  } catch (err) {
    if (isUniqueViolation(err)) throw unprocessable({ clientId: ['unique'] });
    throw err;
  }
}

/** GET .../system_access/{id}/sso_client: the client, or null when there is none (always for the fixed system). */
export async function getSsoClient(prisma: PrismaClient, systemId: number): Promise<SsoClient | null> {
  const system = await prisma.systemAccess.findUnique({ where: { id: systemId }, include: { ssoClient: true } });
  if (!system) throw notFound(CONFIG_MESSAGES.systems.load);
  return system.ssoClient ? ssoClientView(system.ssoClient) : null;
}

/**
 * PUT .../system_access/{id}/sso_client: creates the system's client or changes it. A new confidential client,
 * or one turned confidential, gets a secret answered once in `clientSecret`; turning public drops the secret.
 * @throws 304 nothing changed, 404 unknown system, 422 (fixed system; `clientId` `unique`).
 */
export function saveSsoClient(
  prisma: PrismaClient,
  actor: AuditActor,
  systemId: number,
  body: SsoClientBody,
): Promise<SsoClientSaved> {
  return write(prisma, async (tx) => {
    await clientSystem(tx, systemId);
    const before = await tx.ssoClient.findUnique({ where: { systemAccessId: systemId } });
    if (body.clientId !== before?.clientId) {
      const taken = await tx.ssoClient.findUnique({ where: { clientId: body.clientId } });
      if (taken) throw unprocessable({ clientId: ['unique'] });
    }
    const issue = !body.isPublic && !before?.secretHash;
    const secret = issue ? newClientSecret() : null;
    const data = {
      ...body,
      secretHash: body.isPublic ? null : secret ? await hashClientSecret(secret) : before!.secretHash,
    };
    if (before && !secret && sameSnapshot(pickFields(before), pickFields({ ...before, ...data }))) throw notModified();
    const row = before
      ? await tx.ssoClient.update({ where: { systemAccessId: systemId }, data })
      : await tx.ssoClient.create({ data: { ...data, systemAccessId: systemId } });
    if (before && before.clientId !== row.clientId) await revokeIssuedTo(tx, before.clientId);
    await recordAudit(tx, actor, {
      entityType: ENTITY,
      entityId: systemId,
      action: before ? 'UPDATED' : 'CREATED',
      before: before ? auditSnapshot(before) : undefined,
      after: auditSnapshot(row),
    });
    return { ...ssoClientView(row), clientSecret: secret };
  });
}

/** The stored fields a save may change (the 304 comparison). */
function pickFields(r: SsoClientRow) {
  const { createdAt: _created, updatedAt: _updated, systemAccessId: _system, ...fields } = r;
  return fields;
}

/**
 * Ends what the provider issued to `clientId` (oidc-provider's rows in `OidcPayload`: its grants and every code
 * and token, under them or naming the client), in the transaction of a removal or a client id change, so a
 * client id registered again later (by any system) inherits nothing.
 */
async function revokeIssuedTo(tx: Tx, clientId: string): Promise<void> {
  await tx.$executeRaw`
    DELETE FROM "OidcPayload"
     WHERE "payload"->>'clientId' = ${clientId}
        OR "grantId" IN (SELECT "id" FROM "OidcPayload" WHERE "kind" = 'Grant' AND "payload"->>'clientId' = ${clientId})`;
}

/** The system's client, for a change that needs one. @throws 404 'Single sign-on is not set up ...'. */
async function existingClient(tx: Tx, systemId: number): Promise<SsoClientRow> {
  await clientSystem(tx, systemId);
  const row = await tx.ssoClient.findUnique({ where: { systemAccessId: systemId } });
  if (!row) throw notFound(SSO_CLIENT_MESSAGES.notSetUp);
  return row;
}

/**
 * POST .../system_access/{id}/sso_client/secret: a new secret for a confidential client, answered once; the
 * old one stops working at once. @throws 404, 422 (fixed system; a public client has no secret).
 */
export function rotateSsoClientSecret(prisma: PrismaClient, actor: AuditActor, systemId: number) {
  return write(prisma, async (tx): Promise<SsoClientSaved> => {
    const before = await existingClient(tx, systemId);
    if (before.isPublic) throw unprocessable({}, [SSO_CLIENT_MESSAGES.publicHasNoSecret]);
    const secret = newClientSecret();
    const row = await tx.ssoClient.update({
      where: { systemAccessId: systemId },
      data: { secretHash: await hashClientSecret(secret) },
    });
    await recordAudit(tx, actor, {
      entityType: ENTITY,
      entityId: systemId,
      action: 'SECRET_ROTATED',
      // The same before and after: the action says what changed (never the secret nor its digest).
      before: auditSnapshot(before),
      after: auditSnapshot(row),
    });
    return { ...ssoClientView(row), clientSecret: secret };
  });
}

/** DELETE .../system_access/{id}/sso_client: the system no longer signs in through the portal. @throws 404, 422. */
export function deleteSsoClient(prisma: PrismaClient, actor: AuditActor, systemId: number) {
  return write(prisma, async (tx) => {
    const before = await existingClient(tx, systemId);
    await tx.ssoClient.delete({ where: { systemAccessId: systemId } });
    await revokeIssuedTo(tx, before.clientId);
    await recordAudit(tx, actor, {
      entityType: ENTITY,
      entityId: systemId,
      action: 'DELETED',
      before: auditSnapshot(before),
    });
    return {};
  });
}
