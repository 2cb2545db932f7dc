/**
 * Approval policies (docs/decisions.md "Approval policies"; contract approval-policies.ts), Configure →
 * Approval policies: list, create, update (at the `versionno` it was loaded at; 304 when nothing changed) and
 * delete, each change audited (entity ApprovalPolicy) in its transaction. Rules held here: the study role
 * exists (`studyRoleId: unknown`), the system exists (`systemAccessId: unknown`) and is one of the role's
 * systems (`invalid`), one policy per role and system (`studyRoleId: unique`). Requests already filed keep
 * the plan they were filed under: nothing here touches them.
 */
import {
  APPROVAL_TEXTS,
  type ApprovalPolicy,
  type ApprovalPolicyBody,
  type ApprovalStage,
  ApprovalStageSchema,
  type FieldErrors,
  GLOBAL_ERRORS,
} from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';
import { notFound, notModified, unprocessable } from '../../http/errors';
import { type AuditActor, recordAudit } from '../../shared/audit-log';

type Tx = Prisma.TransactionClient;
type Db = PrismaClient | Tx;

const ENTITY = 'ApprovalPolicy';
const include = { studyRole: true, system: true } as const;
type PolicyRow = Prisma.ApprovalPolicyGetPayload<{ include: typeof include }>;

/** Options of every change: long enough for a lock wait, never unbounded (as the configuration's). */
const TX_OPTIONS = { timeout: 20_000, maxWait: 10_000 } as const;

const policyView = (r: PolicyRow): ApprovalPolicy => ({
  id: r.id,
  studyRoleId: r.studyRoleId,
  roleName: r.studyRole.roleName,
  systemAccessId: r.systemAccessId,
  systemName: r.system?.systemName ?? null,
  stages: ApprovalStageSchema.array().parse(r.stages),
  active: r.active,
  versionno: r.versionno,
  lastModifiedBy: r.lastModifiedBy,
  dchng: r.dchng.toISOString(),
});

/** Every policy, by study role name, then any-system first, then system name (docs/decisions.md). */
export async function listApprovalPolicies(prisma: PrismaClient): Promise<ApprovalPolicy[]> {
  const rows = await prisma.approvalPolicy.findMany({ include, orderBy: { id: 'asc' } });
  return rows
    .map(policyView)
    .sort(
      (a, b) =>
        a.roleName.localeCompare(b.roleName) || (a.systemName ?? '').localeCompare(b.systemName ?? '') || a.id - b.id,
    );
}

/** One policy. @throws HttpError 404. */
export async function getApprovalPolicy(db: Db, id: number): Promise<ApprovalPolicy> {
  const row = await db.approvalPolicy.findUnique({ where: { id }, include });
  if (!row) throw notFound(APPROVAL_TEXTS.loadPolicy);
  return policyView(row);
}

/** Field errors of `body` against the database (`currentId`: the policy being edited). */
async function ruleErrors(tx: Tx, body: ApprovalPolicyBody, currentId?: number): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const role = await tx.studyRole.findUnique({ where: { id: body.studyRoleId }, include: { systems: true } });
  if (!role) errors.studyRoleId = ['unknown'];
  if (body.systemAccessId !== null) {
    const system = await tx.systemAccess.findUnique({ where: { id: body.systemAccessId } });
    if (!system) errors.systemAccessId = ['unknown'];
    else if (role && !role.systems.some((s) => s.systemId === body.systemAccessId)) {
      errors.systemAccessId = ['invalid'];
    }
  }
  const clash = await tx.approvalPolicy.findFirst({
    where: {
      studyRoleId: body.studyRoleId,
      systemAccessId: body.systemAccessId,
      ...(currentId ? { NOT: { id: currentId } } : {}),
    },
  });
  if (clash && !errors.studyRoleId) errors.studyRoleId = ['unique'];
  return errors;
}

/** True for a unique violation (Prisma P2002, or PostgreSQL's 23505 of the (role, system) index). */
const isUniqueViolation = (err: unknown): boolean =>
  typeof err === 'object' &&
  err !== null &&
  ((err as { code?: unknown }).code === 'P2002' || String((err as { message?: unknown }).message).includes('23505'));

/** Runs `work` serialised with every other policy change (advisory lock class 4 = configuration, key 5). */
async function write<T>(prisma: PrismaClient, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(4, 5)`;
      return work(tx);
    }, TX_OPTIONS);
  } catch (err) {
    if (isUniqueViolation(err)) throw unprocessable({ studyRoleId: ['unique'] });
    throw err;
  }
}

const fields = (body: ApprovalPolicyBody) => ({
  studyRoleId: body.studyRoleId,
  systemAccessId: body.systemAccessId,
  stages: body.stages satisfies ApprovalStage[] as Prisma.InputJsonValue,
  active: body.active,
});

/**
 * POST .../approval_policies (docs/decisions.md "Approval policies"): a new policy, audited CREATED.
 * @throws HttpError 422 with the module's field errors.
 */
export function createApprovalPolicy(prisma: PrismaClient, actor: AuditActor, body: ApprovalPolicyBody) {
  return write(prisma, async (tx) => {
    const errors = await ruleErrors(tx, body);
    if (Object.keys(errors).length) throw unprocessable(errors);
    const row = await tx.approvalPolicy.create({ data: { ...fields(body), lastModifiedBy: actor.username } });
    const after = await getApprovalPolicy(tx, row.id);
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: row.id, action: 'CREATED', after });
    return after;
  });
}

/**
 * PUT .../approval_policies/{id} at `body.versionno` (docs/decisions.md "Approval policies"): audited UPDATED.
 * @throws HttpError 304 (nothing changed), 404, 422 (`versionno: required`, STALE_VERSION, field errors).
 */
export function updateApprovalPolicy(prisma: PrismaClient, actor: AuditActor, id: number, body: ApprovalPolicyBody) {
  return write(prisma, async (tx) => {
    const before = await getApprovalPolicy(tx, id);
    if (body.versionno === undefined) throw unprocessable({ versionno: ['required'] });
    if (body.versionno !== before.versionno) throw unprocessable({}, [GLOBAL_ERRORS.staleVersion]);
    const same =
      before.studyRoleId === body.studyRoleId &&
      before.systemAccessId === body.systemAccessId &&
      before.active === body.active &&
      JSON.stringify(before.stages) === JSON.stringify(body.stages);
    if (same) throw notModified();
    const errors = await ruleErrors(tx, body, id);
    if (Object.keys(errors).length) throw unprocessable(errors);
    const moved = await tx.approvalPolicy.updateMany({
      where: { id, versionno: before.versionno },
      data: { ...fields(body), versionno: { increment: 1 }, dchng: new Date(), lastModifiedBy: actor.username },
    });
    if (moved.count !== 1) throw unprocessable({}, [GLOBAL_ERRORS.staleVersion]);
    const after = await getApprovalPolicy(tx, id);
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: id, action: 'UPDATED', before, after });
    return after;
  });
}

/**
 * DELETE .../approval_policies/{id} (docs/decisions.md "Approval policies"): audited DELETED; requests filed
 * under it keep their plan. @throws HttpError 404.
 */
export function deleteApprovalPolicy(prisma: PrismaClient, actor: AuditActor, id: number): Promise<void> {
  return write(prisma, async (tx) => {
    const before = await getApprovalPolicy(tx, id);
    await tx.approvalPolicy.delete({ where: { id } });
    await recordAudit(tx, actor, { entityType: ENTITY, entityId: id, action: 'DELETED', before });
  });
}
