import { describe, expect, it } from 'vitest';
import { AuditQuerySchema, auditActionLabel } from './audit';
import {
  CONFIG_MESSAGES,
  PortalRoleCreateBodySchema,
  StudyRoleBodySchema,
  SystemBodySchema,
  isBasicPortalRole,
  studyRoleRuleErrors,
} from './configuration';
import { zodToFieldErrors } from './errors';

const errorsOf = (r: { success: boolean; error?: Parameters<typeof zodToFieldErrors>[0] }) =>
  r.success ? {} : zodToFieldErrors(r.error!);

describe('configuration bodies (001 §5)', () => {
  it('portal role: name 64, a permission required, the array kept in PERMISSIONS order without duplicates', () => {
    expect(errorsOf(PortalRoleCreateBodySchema.safeParse({ description: ' ', permissions: [] }))).toEqual({
      description: ['required'],
      permissions: [CONFIG_MESSAGES.portalRoles.selectPermission],
    });
    expect(
      errorsOf(PortalRoleCreateBodySchema.safeParse({ description: 'x'.repeat(65), permissions: ['USER'] })),
    ).toEqual({
      description: ['size'],
    });
    const ok = PortalRoleCreateBodySchema.parse({ description: ' Monitor ', permissions: ['USER', 'ADMIN', 'USER'] });
    expect(ok).toEqual({ description: 'Monitor', permissions: ['ADMIN', 'USER'] });
  });

  it('study role: name 128 and description 1024 required, a default system required, allowSites unnested', () => {
    expect(errorsOf(StudyRoleBodySchema.safeParse({ roleName: '', description: 'd'.repeat(1025) }))).toEqual({
      roleName: ['required'],
      description: ['size'],
      systemAccessIds: [CONFIG_MESSAGES.studyRoles.atLeastOneSystem],
    });
    const parsed = StudyRoleBodySchema.parse({
      roleName: 'R',
      description: 'D',
      allowSites: { allowAOs: false, allowLAOs: true },
      systemAccessIds: [3, 1, 3],
    });
    expect(parsed).toMatchObject({ allowAOs: false, allowLAOs: true, systemAccessIds: [1, 3], siteRequired: false });
    expect(parsed.sort).toBeUndefined();
  });

  it('study role: a role that requires sites must allow AOs or LAOs', () => {
    expect(studyRoleRuleErrors({ siteRequired: true, allowAOs: false, allowLAOs: false })).toEqual({
      siteRequired: ['You must allow user-selection of AOs or LAOs in order to require that the user provide them'],
    });
    expect(studyRoleRuleErrors({ siteRequired: true, allowAOs: false, allowLAOs: true })).toEqual({});
    expect(studyRoleRuleErrors({ siteRequired: false, allowAOs: false, allowLAOs: false })).toEqual({});
  });

  it('system: name 128 required, description 1024 optional', () => {
    expect(
      errorsOf(SystemBodySchema.safeParse({ systemName: 's'.repeat(129), description: 'd'.repeat(1025) })),
    ).toEqual({
      systemName: ['size'],
      description: ['size'],
    });
    expect(SystemBodySchema.parse({ systemName: ' EDC ' })).toEqual({
      systemName: 'EDC',
      description: '',
      inactive: false,
    });
  });

  it('basic portal roles grant only USER and/or SET_OWN_PASSWORD', () => {
    expect(isBasicPortalRole(['USER'])).toBe(true);
    expect(isBasicPortalRole(['USER', 'SET_OWN_PASSWORD'])).toBe(true);
    expect(isBasicPortalRole(['READ_USERS'])).toBe(false);
  });
});

describe('audit trail query', () => {
  it('refuses a date range whose start is after its end, with the 000 §5 reasons', () => {
    const r = AuditQuerySchema.safeParse({ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' });
    expect(errorsOf(r)).toEqual({ from: ['afterEndDate'], to: ['beforeStartDate'] });
    expect(AuditQuerySchema.parse({ from: '2026-01-01T00:00:00+01:00' })).toMatchObject({ page: 1, size: 25 });
  });

  it('labels actions', () => {
    expect(auditActionLabel('STATUS_IN_PROGRESS')).toBe('Status set to In Progress');
    expect(auditActionLabel('APPLY_NEW')).toBe('Access applied (new)');
    expect(auditActionLabel('DEACTIVATED')).toBe('Deactivated');
    expect(auditActionLabel('PASSWORD_CHANGED')).toBe('Password changed');
  });
});
