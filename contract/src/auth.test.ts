import { describe, expect, it } from 'vitest';
import { zodToFieldErrors } from './errors';
import { AUTH_MESSAGES, ForgotPasswordBodySchema, expiryStateOf, formatRemaining, PasswordSetBodySchema } from './auth';

describe('inactivity countdown text (000 §2 Inactivity modal)', () => {
  it('gives minutes rounded up when more than a minute remains, otherwise seconds', () => {
    expect(formatRemaining(299)).toBe('5 minutes');
    expect(formatRemaining(61)).toBe('2 minutes');
    expect(formatRemaining(60)).toBe('60 seconds');
    expect(formatRemaining(12.2)).toBe('13 seconds');
    expect(formatRemaining(1)).toBe('1 second');
    expect(AUTH_MESSAGES.inactivityText(formatRemaining(45))).toContain('45 seconds');
  });
});

describe('password expiry state (000 §4)', () => {
  it('maps the sign-in expiryState only when the password expires soon', () => {
    expect(expiryStateOf('ForceUserToChangePassword', true)).toBe('FORCE_CHANGE');
    expect(expiryStateOf('WarnUserToChangePassword', true)).toBe('WARN_CHANGE');
    expect(expiryStateOf(undefined, false)).toBeNull();
  });
});

describe('password bodies (000 §3, §5)', () => {
  it('keys forgot-password errors by emailAddress', () => {
    const empty = ForgotPasswordBodySchema.safeParse({ emailAddress: ' ' });
    expect(empty.success || zodToFieldErrors(empty.error)).toEqual({ emailAddress: ['required'] });
    const bad = ForgotPasswordBodySchema.safeParse({ emailAddress: 'not-an-address' });
    expect(bad.success || zodToFieldErrors(bad.error)).toEqual({ emailAddress: ['validEmail'] });
  });

  it('refuses a malformed hash before any look-up', () => {
    const res = PasswordSetBodySchema.safeParse({ hash: '../etc', password: 'x' });
    expect(res.success || zodToFieldErrors(res.error)).toEqual({ hash: ['invalid'] });
  });
});
