import { describe, expect, it } from 'vitest';
import { MESSAGES, translateFieldErrors } from './messages';

describe('translateFieldErrors (000 §5)', () => {
  it("renders '{label} {reason}', with 'are' for plural labels", () => {
    expect(translateFieldErrors('First Name', ['required'])).toBe('First Name is required');
    expect(translateFieldErrors('Studies', ['required'], true)).toBe('Studies are required');
    expect(translateFieldErrors('Email', ['size', 'validEmail'])).toBe('Email is too long; Email is invalid');
  });

  it('drops duplicates and shows unknown keys and sentences raw', () => {
    expect(translateFieldErrors('AOs', ['notEmpty', 'required', MESSAGES.access.atLeastOneSite], true)).toBe(
      'AOs are required; At least one AO or LAO is required',
    );
    expect(translateFieldErrors('Password', ['tooShort', 'noDigit'], false, ', ')).toBe('tooShort, noDigit');
  });

  it('formats the lockout warning (000 §5)', () => {
    expect(MESSAGES.signIn.lockoutWarning(2)).toBe('Your account will be locked after 2 more unsuccessful attempts.');
  });
});
