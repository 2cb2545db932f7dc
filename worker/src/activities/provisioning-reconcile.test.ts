import { describe, expect, it } from 'vitest';
import { userResource } from '@portal/scim';
import { differenceOf } from './provisioning-reconcile';

const wanted = {
  portalUserId: 7,
  subjectId: '0b6c1f5e-5d1e-4a7b-9a53-2f0c6d1e8a11',
  userName: 'jdoe',
  givenName: 'Jane',
  familyName: 'Doe',
  email: 'jane@example.org',
  active: true,
  access: [{ studyRole: 'CRA', study: 'E1234', organization: 'MA036' }],
};
const held = (over: Record<string, unknown> = {}) => ({ id: 't1', ...userResource(wanted, 'EXTENSION'), ...over });

describe('differenceOf', () => {
  it('reports nothing for an account as it should be', () => {
    expect(differenceOf(held(), wanted, 'EXTENSION')).toBeNull();
  });

  it('an active account no portal user owns, or without access, is an orphan; a deactivated one is fine', () => {
    expect(differenceOf(held({ externalId: 'someone-else' }), undefined, 'EXTENSION')).toMatchObject({
      kind: 'ORPHAN',
      detail: 'No portal user has this externalId',
      portalUserId: null,
    });
    expect(differenceOf(held(), { ...wanted, active: false }, 'EXTENSION')).toMatchObject({
      kind: 'ORPHAN',
      portalUserId: 7,
    });
    expect(differenceOf(held({ active: false }), { ...wanted, active: false }, 'EXTENSION')).toBeNull();
    expect(differenceOf(held({ active: false }), undefined, 'EXTENSION')).toBeNull();
  });

  it('a drifted account names the attribute, the portal value and the target value', () => {
    const d = differenceOf(held({ emails: [{ value: 'old@example.org', primary: true }] }), wanted, 'EXTENSION');
    expect(d).toMatchObject({ kind: 'DRIFTED', targetId: 't1', userName: 'jdoe' });
    expect(d?.detail).toBe('emails: portal "jane@example.org", target "old@example.org"');
  });
});
