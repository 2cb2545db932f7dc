/**
 * The one writer of users' access records and portal roles (000 §3 User access record; REQUEST-LIFECYCLE
 * rule 7), shared by the API's user_access calls (000 §7) and the worker's review commit (001 §2.8), so both
 * lock, version and compare the same way:
 * - `lockAndLoadAccess` takes the user's access lock and reads their active records: call it first, inside
 *   the transaction that writes;
 * - `planAccess` compares what a writer wants with what is stored (matched by study role, one active record
 *   per role): records to create, to replace, to remove; a record sent with an `id`/`versionno` that is no
 *   longer the active one is stale (optimistic concurrency);
 * - `applyAccessPlan` writes it, versioned: a changed or removed record stays, inactive, and its new version
 *   (versionno + 1) points at it (`priorAccessControlId`, `originalRevisionNumber` = the chain's first id); a
 *   removal's new version is itself inactive, so the chain records when the access ended; an end date
 *   (issue 25) travels with the content, and a version keeping its end date keeps the notice sent for it; the
 *   systems the person no longer holds lose their single sign-on grants in the same transaction
 *   (sso-revocation.ts);
 * - `setPortalRoles` replaces the user's portal roles;
 * - `checkAccessWrite` / `writeAccess` put these together for a writer: the checks that need the stored rows
 *   (rules, stale records, portal roles, ADMIN), then the write;
 * - `expireAccess` removes the records past their end date (issue 25: the access expiry's one write).
 */
import { type FieldErrors, GLOBAL_ERRORS, endDayOf, resolvedEndDay } from '@portal/contract';
import type { Prisma, UserAccess } from '../generated/client/client';
import { checkAccessControls, loadReferenceSets } from './access-rules';
import { lockUserAccess } from './locks';
import { heldSystems, revokeSsoAccess } from './sso-revocation';
import { noteProvisioning } from './provisioning';

type Tx = Prisma.TransactionClient;

/** The content of an access record a writer wants (a role block plus the record it edits, if any). */
export interface AccessRecordWrite {
  id?: number | null;
  versionno?: number;
  roleName: string;
  siteCodes: readonly string[];
  laoIds: readonly string[];
  studyNames: readonly string[];
  systemAccessIds: readonly number[];
  /** Issue 25: the last day of the access ('YYYY-MM-DD'), null for none; absent keeps the held end date. */
  accessEndDate?: string | null;
}

export interface AccessPlan {
  creates: AccessRecordWrite[];
  replaces: { prior: UserAccess; next: AccessRecordWrite }[];
  removals: UserAccess[];
  /** Indexes of wanted records whose `id`/`versionno` is no longer the active version. */
  stale: number[];
}

/** One written change, for the audit row. */
export interface AccessChange {
  roleName: string;
  priorId: number | null;
  newId: number;
  inactive: boolean;
}

/** Who writes (the records' createdBy / lastModifiedBy). */
export interface AccessWriter {
  username: string;
}

/** Takes `portalUserId`'s access lock (rule 7) and returns their active records, by study role. */
export async function lockAndLoadAccess(tx: Tx, portalUserId: number): Promise<UserAccess[]> {
  await lockUserAccess(tx, portalUserId);
  return tx.userAccess.findMany({
    where: { portalUserId, inactive: false },
    orderBy: [{ roleName: 'asc' }, { versionno: 'desc' }],
  });
}

const sorted = <T extends string | number>(list: readonly T[]) =>
  [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const sameList = <T extends string | number>(a: readonly T[], b: readonly T[]) =>
  JSON.stringify(sorted([...new Set(a)])) === JSON.stringify(sorted([...new Set(b)]));

/** True when the stored record already holds `want` (order and duplicates do not matter). */
export function sameAccessContent(row: UserAccess, want: AccessRecordWrite): boolean {
  return (
    row.roleName === want.roleName &&
    sameList(row.siteCodes, want.siteCodes) &&
    sameList(row.laoIds, want.laoIds) &&
    sameList(row.studyNames, want.studyNames) &&
    sameList(row.systemAccessIds, want.systemAccessIds) &&
    endDayOf(row.accessEndDate) === resolvedEndDay(row.accessEndDate, want.accessEndDate)
  );
}

/** A day 'YYYY-MM-DD' as the `date` column takes it. */
const dateColumn = (day: string | null): Date | null => (day === null ? null : new Date(`${day}T00:00:00Z`));

/** A record sent by id that is no longer active, or at another version, was changed by someone else. */
function isStale(want: AccessRecordWrite, active: readonly UserAccess[]): boolean {
  if (want.id == null) return false;
  const row = active.find((r) => r.id === want.id);
  return !row || (want.versionno !== undefined && want.versionno !== row.versionno);
}

/**
 * Plans the user's access as exactly `wanted` (PUT user_access/user/{id}, the review): roles not wanted are
 * removed. With `only` set, the plan touches only those study roles (a single-record call).
 */
export function planAccess(
  active: readonly UserAccess[],
  wanted: readonly AccessRecordWrite[],
  only?: ReadonlySet<string>,
): AccessPlan {
  const byRole = new Map<string, UserAccess>();
  for (const row of active) if (!byRole.has(row.roleName)) byRole.set(row.roleName, row);
  const plan: AccessPlan = { creates: [], replaces: [], removals: [], stale: [] };
  const kept = new Set<string>();
  wanted.forEach((want, i) => {
    const prior = byRole.get(want.roleName);
    kept.add(want.roleName);
    if (isStale(want, active)) plan.stale.push(i);
    if (!prior) plan.creates.push(want);
    else if (!sameAccessContent(prior, want)) plan.replaces.push({ prior, next: want });
  });
  for (const [role, row] of byRole) {
    if (!kept.has(role) && (!only || only.has(role))) plan.removals.push(row);
  }
  // A record sent by id with another study role: its old role is no longer wanted, so it is removed.
  return plan;
}

/** True when the plan writes nothing. */
export const isEmptyPlan = (plan: AccessPlan): boolean =>
  plan.creates.length + plan.replaces.length + plan.removals.length === 0;

/**
 * Writes `plan` for `portalUserId` (the caller holds their lock: `lockAndLoadAccess`). `sourceRequestId`
 * names the access-change request whose review wrote it, if any. @returns what changed, for the audit row.
 */
export async function applyAccessPlan(
  tx: Tx,
  portalUserId: number,
  plan: AccessPlan,
  writer: AccessWriter,
  sourceRequestId: number | null = null,
): Promise<AccessChange[]> {
  const changes: AccessChange[] = [];
  const before = await heldSystems(tx, portalUserId);
  const version = async (prior: UserAccess, content: AccessRecordWrite, inactive: boolean) => {
    await tx.userAccess.update({ where: { id: prior.id }, data: { inactive: true, lastModifiedBy: writer.username } });
    const endDay = resolvedEndDay(prior.accessEndDate, content.accessEndDate);
    const created = await tx.userAccess.create({
      data: {
        portalUserId,
        roleName: prior.roleName,
        inactive,
        siteCodes: [...new Set(content.siteCodes)],
        laoIds: [...new Set(content.laoIds)],
        studyNames: [...new Set(content.studyNames)],
        systemAccessIds: [...new Set(content.systemAccessIds)],
        accessEndDate: dateColumn(endDay),
        // One notice per end date (issue 25): a version that keeps it keeps the notice already sent.
        expiryNoticeSentAt: endDay === endDayOf(prior.accessEndDate) ? prior.expiryNoticeSentAt : null,
        versionno: prior.versionno + 1,
        priorAccessControlId: prior.id,
        originalRevisionNumber: prior.originalRevisionNumber ?? prior.id,
        sourceRequestId,
        createdBy: writer.username,
        lastModifiedBy: writer.username,
      },
    });
    changes.push({ roleName: prior.roleName, priorId: prior.id, newId: created.id, inactive });
  };
  for (const { prior, next } of plan.replaces) await version(prior, next, false);
  for (const prior of plan.removals) await version(prior, { ...prior, accessEndDate: undefined }, true);
  for (const want of plan.creates) {
    const created = await tx.userAccess.create({
      data: {
        portalUserId,
        roleName: want.roleName,
        inactive: false,
        siteCodes: [...new Set(want.siteCodes)],
        laoIds: [...new Set(want.laoIds)],
        studyNames: [...new Set(want.studyNames)],
        systemAccessIds: [...new Set(want.systemAccessIds)],
        accessEndDate: dateColumn(want.accessEndDate ?? null),
        versionno: 1,
        sourceRequestId,
        createdBy: writer.username,
        lastModifiedBy: writer.username,
      },
    });
    changes.push({ roleName: want.roleName, priorId: null, newId: created.id, inactive: false });
  }
  // Systems the person no longer holds lose their single sign-on grants in this transaction (issue 22).
  const after = await heldSystems(tx, portalUserId);
  await revokeSsoAccess(
    tx,
    portalUserId,
    [...before].filter((id) => !after.has(id)),
  );
  // Provisioned systems the change touched converge on it once it commits (issue 41).
  if (changes.length) await noteProvisioning(tx, portalUserId, [...before, ...after]);
  return changes;
}

/** The user's portal role ids, ascending. */
export async function portalRoleIdsOf(tx: Tx, portalUserId: number): Promise<number[]> {
  const rows = await tx.portalUserRole.findMany({ where: { portalUserId }, select: { portalRoleId: true } });
  return rows.map((r) => r.portalRoleId).sort((a, b) => a - b);
}

/**
 * Replaces the user's portal roles by `wanted` (the caller holds their lock). @returns the ids added and
 * removed (both empty when nothing changed).
 */
export async function setPortalRoles(
  tx: Tx,
  portalUserId: number,
  wanted: readonly number[],
): Promise<{ added: number[]; removed: number[] }> {
  const held = await portalRoleIdsOf(tx, portalUserId);
  const want = [...new Set(wanted)];
  const added = want.filter((id) => !held.includes(id));
  const removed = held.filter((id) => !want.includes(id));
  if (removed.length) await tx.portalUserRole.deleteMany({ where: { portalUserId, portalRoleId: { in: removed } } });
  if (added.length) {
    await tx.portalUserRole.createMany({ data: added.map((portalRoleId) => ({ portalUserId, portalRoleId })) });
  }
  return { added, removed };
}

/** What one writer asks for: access records (all of the user's, or only the `only` roles) and portal roles. */
export interface AccessWriteRequest {
  userAccesses?: readonly AccessRecordWrite[];
  portalRoleIds?: readonly number[];
  /** Single-record calls: the plan touches only these study roles (no removal of the others). */
  only?: ReadonlySet<string>;
  /** A create (POST): a wanted study role the user already holds is `unique`, never a new version. */
  createOnly?: boolean;
}

/** The checks' answer: problems, and what would be written (null parts write nothing). */
export interface AccessWriteCheck {
  /** 422 fieldErrors, keyed `<keyPrefix>[i].<field>` and `portalUser.portalRoleIds`. */
  fieldErrors: FieldErrors;
  /** 422 globalErrors: STALE_VERSION when a record sent by id/versionno is no longer the active version. */
  globalErrors: string[];
  /** True when an ADMIN portal role would be given or taken by someone without ADMIN (403 / refusal). */
  adminRoleChange: boolean;
  plan: AccessPlan | null;
  portalRoleIds: number[] | null;
}

/**
 * The checks that need the stored rows (000 §5, 001 §5; REQUEST-LIFECYCLE: made by the API before a save
 * and again by the commit): the role-block rules, stale records, portal roles that exist (an inactive one
 * may be kept, not newly given) and the ADMIN rule, and what would change. Read-only.
 */
export async function checkAccessWrite(
  tx: Tx,
  portalUserId: number,
  want: AccessWriteRequest,
  opts: { keyPrefix: string; isAdmin: boolean },
): Promise<AccessWriteCheck> {
  const check: AccessWriteCheck = {
    fieldErrors: {},
    globalErrors: [],
    adminRoleChange: false,
    plan: null,
    portalRoleIds: null,
  };
  if (want.userAccesses) {
    const blocks = want.userAccesses.map((b) => ({
      ...b,
      siteCodes: [...b.siteCodes],
      laoIds: [...b.laoIds],
      studyNames: [...b.studyNames],
      systemAccessIds: [...b.systemAccessIds],
    }));
    const active = await tx.userAccess.findMany({
      where: { portalUserId, inactive: false },
      orderBy: { roleName: 'asc' },
    });
    const plan = planAccess(active, want.userAccesses, want.only);
    // A record sent back as stored is not judged again (its study role or a site may have been deactivated
    // since it was granted): only what this write changes must follow today's rules; a role twice never may.
    const kept = new Set(
      want.userAccesses.flatMap((b, i) => (active.some((row) => sameAccessContent(row, b)) ? [i] : [])),
    );
    const errors = checkAccessControls(blocks, await loadReferenceSets(tx), opts.keyPrefix);
    // An end date sent as the record holds it is not judged again either (it may be today's or one set under
    // another ACCESS_MAX_DAYS): only an end date this write sets must be within today's window (issue 25).
    const heldEnd = (i: number) => {
      const row = active.find((r) => r.roleName === want.userAccesses![i]!.roleName);
      return row !== undefined && endDayOf(row.accessEndDate) === want.userAccesses![i]!.accessEndDate;
    };
    for (const [key, reasons] of Object.entries(errors)) {
      const index = Number(/\[(\d+)\]/.exec(key)?.[1]);
      if (key.endsWith('.accessEndDate') && heldEnd(index)) continue;
      const judged = kept.has(index) ? reasons.filter((r) => key.endsWith('.roleName') && r === 'unique') : reasons;
      if (judged.length) check.fieldErrors[key] = judged;
    }
    if (plan.stale.length) check.globalErrors.push(GLOBAL_ERRORS.staleVersion);
    if (want.createOnly) {
      want.userAccesses.forEach((b, i) => {
        if (active.some((row) => row.roleName === b.roleName))
          check.fieldErrors[`${opts.keyPrefix}[${i}].roleName`] = ['unique'];
      });
    }
    if (!isEmptyPlan(plan)) check.plan = plan;
  }
  if (want.portalRoleIds) {
    const held = await portalRoleIdsOf(tx, portalUserId);
    const wanted = [...new Set(want.portalRoleIds)].sort((a, b) => a - b);
    if (JSON.stringify(held) !== JSON.stringify(wanted)) {
      const roles = await tx.portalRole.findMany({ where: { id: { in: [...new Set([...held, ...wanted])] } } });
      const known = (id: number) => roles.some((r) => r.id === id && (!r.inactive || held.includes(id)));
      if (wanted.some((id) => !known(id))) check.fieldErrors['portalUser.portalRoleIds'] = ['unknown'];
      const changed = roles.filter((r) => held.includes(r.id) !== wanted.includes(r.id));
      check.adminRoleChange = !opts.isAdmin && changed.some((r) => r.permissions.includes('ADMIN'));
      check.portalRoleIds = wanted;
    }
  }
  return check;
}

/** True when the check found something to write. */
export const writesSomething = (check: AccessWriteCheck): boolean => !!check.plan || !!check.portalRoleIds;

/**
 * Writes what `checkAccessWrite` planned (the caller holds the user's lock and found no problem).
 * @returns the written record changes and the portal roles added and removed, for the audit row.
 */
export async function writeAccess(
  tx: Tx,
  portalUserId: number,
  check: AccessWriteCheck,
  writer: AccessWriter,
  sourceRequestId: number | null = null,
): Promise<{ changes: AccessChange[]; portalRoles: { added: number[]; removed: number[] } | null }> {
  const changes = check.plan ? await applyAccessPlan(tx, portalUserId, check.plan, writer, sourceRequestId) : [];
  const portalRoles = check.portalRoleIds ? await setPortalRoles(tx, portalUserId, check.portalRoleIds) : null;
  return { changes, portalRoles };
}

/** One access record the expiry removed (issue 25). */
export interface ExpiredAccess {
  /** The record that ended (its chain's active version until now). */
  priorId: number;
  /** The removal's inactive version, which carries `expiredAt` until the person's mail is sent. */
  newId: number;
  roleName: string;
  accessEndDate: string;
}

/**
 * Removes `portalUserId`'s active records whose end date is before `today` (a day in NETWORK_TIME_ZONE: the
 * access ended at the end of its end date), through the same versioned write and single sign-on revocation as
 * any removal, with one `ACCESS_EXPIRED` audit row per record keyed `access-expired:<record id>`. Takes the
 * user's lock and re-reads under it, so a retried or overlapping run finds the record gone and removes it once;
 * an open request of the person does not hold the removal back (its review meets it as a stale record).
 */
export async function expireAccess(
  tx: Tx,
  portalUserId: number,
  today: string,
  writer: AccessWriter,
  workflowId: string | null = null,
): Promise<ExpiredAccess[]> {
  const active = await lockAndLoadAccess(tx, portalUserId);
  const ended = active.filter((r) => {
    const end = endDayOf(r.accessEndDate);
    return end !== null && end < today;
  });
  if (!ended.length) return [];
  const plan = { creates: [], replaces: [], removals: ended, stale: [] };
  const changes = await applyAccessPlan(tx, portalUserId, plan, writer);
  await tx.userAccess.updateMany({
    where: { id: { in: changes.map((c) => c.newId) } },
    data: { expiredAt: new Date() },
  });
  const expired = changes.map((c) => {
    const prior = ended.find((r) => r.id === c.priorId)!;
    return {
      priorId: prior.id,
      newId: c.newId,
      roleName: prior.roleName,
      accessEndDate: endDayOf(prior.accessEndDate)!,
    };
  });
  await tx.auditEvent.createMany({
    data: expired.map((e) => ({
      actorUsername: writer.username,
      entityType: 'UserAccess',
      entityId: String(portalUserId),
      action: 'ACCESS_EXPIRED',
      after: { ...e },
      workflowId,
      idempotencyKey: `access-expired:${e.priorId}`,
    })),
    skipDuplicates: true,
  });
  return expired;
}
