/**
 * The scope check of a new campaign or recurring review (issue 25 "ADMIN creates a campaign: ... a scope (all
 * access, or by systems, study roles, LAOs)"): every system id, study role and LAO it names must exist (inactive
 * ones included: records may still hold them). Unknown names are 422 `scope.<list>: ['unknown']`. And the
 * definition a campaign row and a schedule row both store.
 */
import type { AccessReviewDefinition, AccessReviewScope, FieldErrors } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { unprocessable } from '../../http/errors';

/** @throws HttpError 422 naming each list with an unknown entry. */
export async function checkScope(prisma: PrismaClient, scope: AccessReviewScope): Promise<void> {
  const [systems, roles, laos] = await Promise.all([
    scope.systemAccessIds.length
      ? prisma.systemAccess.findMany({ where: { id: { in: scope.systemAccessIds } }, select: { id: true } })
      : [],
    scope.roleNames.length
      ? prisma.studyRole.findMany({ where: { roleName: { in: scope.roleNames } }, select: { roleName: true } })
      : [],
    scope.laoIds.length
      ? prisma.site.findMany({ where: { laoCode: { in: scope.laoIds } }, select: { laoCode: true } })
      : [],
  ]);
  const fieldErrors: FieldErrors = {};
  const known = {
    systemAccessIds: new Set<unknown>(systems.map((s) => s.id)),
    roleNames: new Set<unknown>(roles.map((r) => r.roleName)),
    laoIds: new Set<unknown>(laos.map((l) => l.laoCode)),
  };
  for (const key of ['systemAccessIds', 'roleNames', 'laoIds'] as const) {
    if ((scope[key] as unknown[]).some((v) => !known[key].has(v))) fieldErrors[`scope.${key}`] = ['unknown'];
  }
  if (Object.keys(fieldErrors).length) throw unprocessable(fieldErrors);
}

/** The stored definition of a campaign or recurring review (the body's fields, nothing else). */
export const definitionOf = (b: AccessReviewDefinition): AccessReviewDefinition => ({
  name: b.name,
  scope: b.scope,
  reviewers: b.reviewers,
  durationDays: b.durationDays,
  reminderEveryDays: b.reminderEveryDays,
  defaultDecision: b.defaultDecision,
});
