/**
 * A system's provisioning connection (issue 41 "A provisioning connection per system (Configure → Systems,
 * ADMIN, audited)"): read, create or change (PUT), remove. Rules held here:
 * - the fixed 'Portal Gateway' system is the portal itself and is never provisioned (422);
 * - the bearer token is sealed with PROVISIONING_KEY (prisma/src/sealed.ts, purpose `provisioning-tokens`) and
 *   never answered again; a save without one keeps the stored token; no key configured refuses a token (422);
 * - a connection may be saved without a token, but not enabled without one (422 `token` `required`); and a
 *   save that moves the base URL to another origin needs the token again (422 `token` `required`), so the
 *   stored token is never sent to a host it was not entered for;
 * - every change writes one audit row (`ProvisioningConnection`, keyed by the system's id) whose snapshots say
 *   `hasToken`, never the token or its sealed form;
 * - turning it on notes everyone of the system (noteProvisioningForSystem), so their accounts are made then;
 * - after the commit the reconciliation schedule is converged on the connection (schedule.ts: Temporal down
 *   delays the schedule, never the save). Removal keeps the system's account states and reports (history).
 */
import type { ProvisioningBody, ProvisioningConnection } from '@portal/contract';
import { CONFIG_MESSAGES, PROVISIONING_MESSAGES } from '@portal/contract';
import { PROVISIONING_SEAL_PURPOSE, type PrismaClient, noteProvisioningForSystem, sealText } from '@portal/db';
import type { Deps } from '../../deps';
import { notFound, notModified, unprocessable } from '../../http/errors';
import { type AuditActor, recordAudit } from '../../shared/audit-log';
import { ENTITY, type Log, TX_OPTIONS, existingConnection, lockSystem } from './common';
import { convergeReconcileSchedule } from './schedule';
import { type ConnectionRow, auditSnapshot, connectionView } from './views';

/** GET .../system_access/{id}/provisioning: the connection, or null (always for the fixed system). @throws 404. */
export async function getConnection(prisma: PrismaClient, systemId: number): Promise<ProvisioningConnection | null> {
  const system = await prisma.systemAccess.findUnique({ where: { id: systemId }, include: { provisioning: true } });
  if (!system) throw notFound(CONFIG_MESSAGES.systems.load);
  return system.provisioning ? connectionView(prisma, system.provisioning) : null;
}

const originOf = (url: string): string => new URL(url).origin;

type Settings = Pick<
  ConnectionRow,
  'baseUrl' | 'enabled' | 'accessAs' | 'deleteOnRemoval' | 'retryDays' | 'reconcileEveryMinutes'
>;

/** The stored settings a save writes (everything but the token), for the 304 comparison. */
const settingsOf = (r: Settings): Settings => ({
  baseUrl: r.baseUrl,
  enabled: r.enabled,
  accessAs: r.accessAs,
  deleteOnRemoval: r.deleteOnRemoval,
  retryDays: r.retryDays,
  reconcileEveryMinutes: r.reconcileEveryMinutes,
});

const sameSettings = (a: Settings, b: Settings) =>
  (Object.keys(a) as Array<keyof Settings>).every((k) => a[k] === b[k]);

/** The sealed form of `token` under the configured key. @throws 422 'PROVISIONING_KEY is not set'. */
function sealed(deps: Deps, token: string): string {
  const key = deps.cfg.PROVISIONING_KEY;
  if (!key) throw unprocessable({}, [PROVISIONING_MESSAGES.keyMissing]);
  return sealText(key, PROVISIONING_SEAL_PURPOSE, token);
}

/**
 * PUT .../system_access/{id}/provisioning: creates the system's connection or changes it (module note), then
 * converges its reconciliation schedule (also when nothing changed, so saving again repairs a schedule that
 * Temporal missed). @returns the connection's view.
 * @throws 304 nothing changed, 404 unknown system, 422 (fixed system; no key for a token; `token` `required`).
 */
export async function saveConnection(
  deps: Deps,
  actor: AuditActor,
  systemId: number,
  body: ProvisioningBody,
  log: Log,
): Promise<ProvisioningConnection> {
  const newToken = body.token ? sealed(deps, body.token) : null;
  const settings = settingsOf(body);
  const { row, changed } = await deps.prisma.$transaction(async (tx) => {
    await lockSystem(tx, systemId);
    const before = await tx.provisioningConnection.findUnique({ where: { systemAccessId: systemId } });
    const movedOrigin = before !== null && originOf(before.baseUrl) !== originOf(settings.baseUrl);
    const tokenSealed = newToken ?? (movedOrigin ? null : (before?.tokenSealed ?? null));
    if (!tokenSealed && (settings.enabled || (movedOrigin && before?.tokenSealed))) {
      throw unprocessable({ token: ['required'] });
    }
    if (before && !newToken && sameSettings(settingsOf(before), settings)) {
      return { row: before, changed: false };
    }
    const data = { ...settings, tokenSealed };
    const saved = before
      ? await tx.provisioningConnection.update({ where: { systemAccessId: systemId }, data })
      : await tx.provisioningConnection.create({ data: { ...data, systemAccessId: systemId } });
    await recordAudit(tx, actor, {
      entityType: ENTITY,
      entityId: systemId,
      action: before ? 'UPDATED' : 'CREATED',
      before: before ? auditSnapshot(before) : undefined,
      after: { ...auditSnapshot(saved), tokenReplaced: newToken !== null },
    });
    // Turned on: everyone of the system is provisioned now, not at their next change.
    if (saved.enabled && !before?.enabled) await noteProvisioningForSystem(tx, systemId);
    return { row: saved, changed: true };
  }, TX_OPTIONS);
  await convergeReconcileSchedule(deps, systemId, log);
  if (!changed) throw notModified();
  return connectionView(deps.prisma, row);
}

/**
 * DELETE .../system_access/{id}/provisioning: the system is no longer provisioned; its schedule goes (already
 * gone: fine). The accounts at the target are left as they are. @throws 404 (unknown system; no connection),
 * 422 fixed system.
 */
export async function deleteConnection(
  deps: Deps,
  actor: AuditActor,
  systemId: number,
  log: Log,
): Promise<Record<string, never>> {
  await deps.prisma.$transaction(async (tx) => {
    await lockSystem(tx, systemId);
    const before = await existingConnection(tx, systemId);
    await tx.provisioningConnection.delete({ where: { systemAccessId: systemId } });
    await recordAudit(tx, actor, {
      entityType: ENTITY,
      entityId: systemId,
      action: 'DELETED',
      before: auditSnapshot(before),
    });
  }, TX_OPTIONS);
  await convergeReconcileSchedule(deps, systemId, log);
  return {};
}
