import { describe, expect, it } from 'vitest';
import { REGISTRATION_MESSAGES, approvalProblems, isOrganisationEmail } from './registration';

const domains = ['portal.test', 'research.test'];
const choices = {
  portalRoleIds: [1],
  accountType: 'external' as const,
  existingAuthAccountUuid: null,
  ignoreValidationWarnings: false,
};

describe('approvalProblems (001 §4 Approval warning, §5, §8)', () => {
  it('accepts an external account with a portal role', () => {
    expect(approvalProblems(choices, 'jane@example.org', domains)).toBeNull();
  });

  it('requires a portal role', () => {
    expect(approvalProblems({ ...choices, portalRoleIds: [] }, 'jane@example.org', domains)).toEqual({
      fieldErrors: { portalRoleIds: [REGISTRATION_MESSAGES.portalRoleRequired] },
      globalErrors: [],
    });
  });

  it('requires an existing entry for an internal account, and then says nothing of the domain', () => {
    expect(approvalProblems({ ...choices, accountType: 'internal' }, 'jane@example.org', domains)).toEqual({
      fieldErrors: {},
      globalErrors: ['PREEXISTING_AD_ACCOUNT_REQUIRED'],
    });
  });

  it('warns of an internal account outside the organisation domains unless warnings are ignored', () => {
    const internal = { ...choices, accountType: 'internal' as const, existingAuthAccountUuid: 'u-1' };
    expect(approvalProblems(internal, 'jane@example.org', domains)?.fieldErrors).toEqual({
      'registrationForm.email': [REGISTRATION_MESSAGES.internalDomainWarning],
    });
    expect(approvalProblems({ ...internal, ignoreValidationWarnings: true }, 'jane@example.org', domains)).toBeNull();
    expect(approvalProblems(internal, 'jane@lab.research.test', domains)).toBeNull();
    // An approval saved before the domains were configuration was checked by the API: no warning then.
    expect(approvalProblems(internal, 'jane@example.org', null)).toBeNull();
  });

  it('matches organisation domains exactly or as parents, never as a suffix of another name', () => {
    expect(isOrganisationEmail('a@PORTAL.test', domains)).toBe(true);
    expect(isOrganisationEmail('a@evilportal.test', domains)).toBe(false);
    expect(isOrganisationEmail('a@example.org', ['example.org'])).toBe(true);
  });
});
