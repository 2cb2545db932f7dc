/**
 * A study's named approvers (docs/decisions.md "Approval policies"; Configure → Studies): the people who decide
 * a STUDY_APPROVERS stage of a request naming the study. The studies with their ids, one study's approvers,
 * and replacing them (audited APPROVERS_CHANGED on the Study, in the same transaction; 304 when unchanged).
 * Only active portal users may be named (`userIds[i]: unknown`).
 */
import { APPROVAL_TEXTS, type ConfigStudy, type FieldErrors, type StudyApprover } from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';
import { notFound, notModified, unprocessable } from '../../http/errors';
import { type AuditActor, recordAudit } from '../../shared/audit-log';

type Db = PrismaClient | Prisma.TransactionClient;

/** Every study, active or not, by name, with its id (the approvers' screen names studies by id). */
export async function listConfigStudies(prisma: PrismaClient): Promise<ConfigStudy[]> {
  const rows = await prisma.study.findMany({ orderBy: { study: 'asc' } });
  return rows.map((s) => ({ id: s.id, study: s.study, active: s.active }));
}

async function studyOf(db: Db, studyId: number) {
  const study = await db.study.findUnique({ where: { id: studyId } });
  if (!study) throw notFound(APPROVAL_TEXTS.loadStudy);
  return study;
}

/** The approvers of study `studyId`, by last name, first name, id. @throws HttpError 404. */
export async function studyApprovers(db: Db, studyId: number): Promise<StudyApprover[]> {
  await studyOf(db, studyId);
  const rows = await db.studyApprover.findMany({ where: { studyId }, include: { portalUser: true } });
  return rows
    .map(({ portalUser: u }) => ({
      userId: u.id,
      username: u.username,
      firstName: u.firstName,
      lastName: u.lastName,
      email: u.email,
    }))
    .sort(
      (a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName) || a.userId - b.userId,
    );
}

/**
 * PUT .../study/{id}/approvers (docs/decisions.md "Approval policies"): the study's approvers become `userIds`
 * (duplicates ignored). @returns the new list. @throws HttpError 304 (the same people), 404, 422
 * `userIds[i]: unknown` for an unknown or inactive user.
 */
export async function setStudyApprovers(
  prisma: PrismaClient,
  actor: AuditActor,
  studyId: number,
  userIds: number[],
): Promise<StudyApprover[]> {
  return prisma.$transaction(
    async (tx) => {
      const study = await studyOf(tx, studyId);
      // One change of a study's approvers at a time (advisory lock class 4 = configuration, key 6).
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(4, 6)`;
      const users = await tx.portalUser.findMany({ where: { id: { in: userIds }, inactive: false } });
      const errors: FieldErrors = {};
      userIds.forEach((id, i) => {
        if (!users.some((u) => u.id === id)) errors[`userIds[${i}]`] = ['unknown'];
      });
      if (Object.keys(errors).length) throw unprocessable(errors);
      const before = await studyApprovers(tx, studyId);
      const wanted = [...new Set(userIds)].sort((a, b) => a - b);
      const had = before.map((a) => a.userId).sort((a, b) => a - b);
      if (JSON.stringify(wanted) === JSON.stringify(had)) throw notModified();
      await tx.studyApprover.deleteMany({ where: { studyId, portalUserId: { notIn: wanted } } });
      await tx.studyApprover.createMany({
        data: wanted.map((portalUserId) => ({ studyId, portalUserId })),
        skipDuplicates: true,
      });
      const after = await studyApprovers(tx, studyId);
      const names = (list: StudyApprover[]) => ({ study: study.study, approvers: list.map((a) => a.username) });
      await recordAudit(tx, actor, {
        entityType: 'Study',
        entityId: studyId,
        action: 'APPROVERS_CHANGED',
        before: names(before),
        after: names(after),
      });
      return after;
    },
    { timeout: 20_000, maxWait: 10_000 },
  );
}
