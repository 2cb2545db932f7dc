import { describe, expect, it } from 'vitest';
import { grantedPermissions, hasAllPermissions } from './permissions';

describe('permissions (000 §6)', () => {
  it('READ_USERS also gives USER and SET_OWN_PASSWORD', () => {
    expect(grantedPermissions(['READ_USERS'])).toEqual(['READ_USERS', 'USER', 'SET_OWN_PASSWORD']);
  });

  it('ADMIN gives everything; WRITE_USERS implies READ_USERS', () => {
    expect(grantedPermissions(['ADMIN'])).toEqual(['ADMIN', 'WRITE_USERS', 'READ_USERS', 'USER', 'SET_OWN_PASSWORD']);
    expect(grantedPermissions(['WRITE_USERS'])).toContain('READ_USERS');
    expect(grantedPermissions(['SET_OWN_PASSWORD'])).toEqual(['SET_OWN_PASSWORD']);
  });

  it('a check passes only if all requested names are present', () => {
    expect(hasAllPermissions(['USER', 'READ_USERS'], ['READ_USERS'])).toBe(true);
    expect(hasAllPermissions(['USER'], ['READ_USERS', 'USER'])).toBe(false);
    expect(hasAllPermissions([], [])).toBe(true);
  });
});
