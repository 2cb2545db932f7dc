import { describe, expect, it } from 'vitest';
import { PORTAL_SCIM_EXTENSION } from '@portal/contract';
import { driftOf, patchOperations, userResource } from './user-resource';

const wanted = {
  subjectId: '0b6c1f5e-5d1e-4a7b-9a53-2f0c6d1e8a11',
  userName: 'jdoe',
  givenName: 'Jane',
  familyName: 'Doe',
  email: 'Jane.Doe@example.org',
  active: true,
  access: [
    { studyRole: 'CRA', study: 'E1234', organization: 'MA036' },
    { studyRole: 'CRA', study: 'E1234', organization: 'LAO1' },
  ],
};

describe('userResource', () => {
  it('sends the core User keyed by the subject id, and the study access as the portal extension', () => {
    const r = userResource(wanted, 'EXTENSION');
    expect(r).toMatchObject({
      externalId: wanted.subjectId,
      userName: 'jdoe',
      name: { givenName: 'Jane', familyName: 'Doe' },
      emails: [{ value: 'Jane.Doe@example.org', primary: true, type: 'work' }],
      active: true,
    });
    expect(r.schemas).toContain(PORTAL_SCIM_EXTENSION);
    expect(
      (r[PORTAL_SCIM_EXTENSION] as { studyAccess: Array<{ value: string }> }).studyAccess.map((a) => a.value),
    ).toEqual(['CRA/E1234/MA036', 'CRA/E1234/LAO1']);
  });

  it('sends no extension when the system takes the core User only', () => {
    const r = userResource(wanted, 'NONE');
    expect(r.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:User']);
    expect(r[PORTAL_SCIM_EXTENSION]).toBeUndefined();
  });
});

describe('driftOf', () => {
  const held = { id: 't1', ...userResource(wanted, 'EXTENSION') };

  it('finds nothing when the target holds what the portal wants (emails compared without case, access in any order)', () => {
    const shuffled = {
      ...held,
      emails: [{ value: 'jane.doe@EXAMPLE.org', primary: true }],
      [PORTAL_SCIM_EXTENSION]: { studyAccess: [{ value: 'CRA/E1234/LAO1' }, { value: 'CRA/E1234/MA036' }] },
    };
    expect(driftOf(wanted, shuffled, 'EXTENSION')).toEqual([]);
  });

  it('names each attribute that differs with both values', () => {
    const drifted = { ...held, userName: 'jd', active: false, emails: [{ value: 'x@example.org', primary: true }] };
    expect(driftOf(wanted, drifted, 'EXTENSION').map((d) => d.attribute)).toEqual(['userName', 'emails', 'active']);
    expect(driftOf(wanted, drifted, 'EXTENSION')[0]).toEqual({ attribute: 'userName', wanted: 'jdoe', held: 'jd' });
  });

  it('ignores the study access of a system that takes the core User only', () => {
    expect(driftOf(wanted, { ...held, [PORTAL_SCIM_EXTENSION]: undefined }, 'NONE')).toEqual([]);
    expect(driftOf(wanted, { ...held, [PORTAL_SCIM_EXTENSION]: undefined }, 'EXTENSION')).toHaveLength(1);
  });
});

describe('patchOperations', () => {
  it('replaces the attributes in one operation, and removes the access list by path when none is held', () => {
    expect(patchOperations(wanted, 'EXTENSION')).toHaveLength(1);
    const none = patchOperations({ ...wanted, access: [], active: false }, 'EXTENSION');
    expect(none).toEqual([
      { op: 'replace', value: expect.objectContaining({ active: false }) },
      { op: 'remove', path: `${PORTAL_SCIM_EXTENSION}:studyAccess` },
    ]);
    expect((none[0]!.value as Record<string, unknown>)[PORTAL_SCIM_EXTENSION]).toBeUndefined();
  });
});
