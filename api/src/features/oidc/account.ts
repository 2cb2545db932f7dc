/**
 * Who may enter a system and what the system is told (issue 22 "Who may enter", "Claims from the access
 * records"): an active portal user holding an active access record whose systems include the client's
 * system. `sub` is the user's immutable `subjectId`. Claims are read from the database on every token and
 * userinfo answer, so a change shows in the next one; a person who no longer may enter gets no account, so
 * the provider refuses the token (a refresh after a removal fails).
 */
import type { Account, AccountClaims } from 'oidc-provider';
import type { PrismaClient } from '@portal/db';
import { grantedPermissions } from '@portal/contract';

/** One role block granting the system (scope `study_access`). */
export interface StudyAccessClaim {
  studyRole: string;
  aoCodes: string[];
  laoCodes: string[];
  studies: string[];
}

const userWithAccess = (prisma: PrismaClient, where: { subjectId: string } | { id: number }) =>
  prisma.portalUser.findUnique({
    where,
    include: {
      userAccesses: { where: { inactive: false } },
      portalRoles: { include: { role: true } },
    },
  });

/** The person's records that grant `systemId` (active records of an active user). */
export async function accessToSystem(
  prisma: PrismaClient,
  where: { subjectId: string } | { id: number },
  systemId: number,
) {
  const user = await userWithAccess(prisma, where);
  if (!user) return { user: null, records: [] };
  return { user, records: user.userAccesses.filter((a) => a.systemAccessIds.includes(systemId)) };
}

/**
 * oidc-provider's `findAccount` for the client's system `systemId` (null: the client is gone).
 * @returns undefined when the subject is unknown, inactive, or no longer holds the system.
 */
export async function findAccount(
  prisma: PrismaClient,
  subjectId: string,
  systemId: number | null,
): Promise<Account | undefined> {
  if (systemId === null || !/^[0-9a-f-]{36}$/i.test(subjectId)) return undefined;
  const { user, records } = await accessToSystem(prisma, { subjectId }, systemId);
  if (!user || user.inactive || !records.length) return undefined;
  return {
    accountId: subjectId,
    async claims(_use: string, scope: string): Promise<AccountClaims> {
      const scopes = new Set(scope.split(' '));
      return {
        sub: subjectId,
        name: `${user.firstName} ${user.lastName}`,
        given_name: user.firstName,
        family_name: user.lastName,
        email: user.email,
        email_verified: true,
        ...(scopes.has('study_access')
          ? {
              study_access: records.map((r): StudyAccessClaim => ({
                studyRole: r.roleName,
                aoCodes: r.siteCodes,
                laoCodes: r.laoIds,
                studies: r.studyNames,
              })),
            }
          : {}),
        ...(scopes.has('portal_roles')
          ? {
              portal_roles: grantedPermissions(
                user.portalRoles.filter((p) => !p.role.inactive).flatMap((p) => p.role.permissions),
              ),
            }
          : {}),
      };
    },
  };
}
