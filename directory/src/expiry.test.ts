import { describe, expect, it } from 'vitest';
import { passwordStatus } from './expiry';
import { historyValue, sshaHash, verifyPasswordHash } from './password';
import { DEFAULT_PASSWORD_POLICY as policy } from './policy';
import { formatGeneralizedTime, parseGeneralizedTime } from './time';

const DAY = 86_400_000;
const now = new Date('2026-11-21T12:00:00Z');
const changed = (daysAgo: number) => ({ changedTime: new Date(now.getTime() - daysAgo * DAY), mustChange: false });

describe('passwordStatus (000 §4 Password expiry, ppolicy)', () => {
  it('is quiet for a fresh password, apart from the minimum-age restriction', () => {
    const s = passwordStatus(changed(0.5), policy, now);
    expect(s).toMatchObject({ expired: false, warn: false, forceChange: false });
    expect(s.restrictedUntil).toEqual(new Date(now.getTime() + 0.5 * DAY));
    expect(passwordStatus(changed(2), policy, now).restrictedUntil).toBeNull();
  });

  it('warns inside pwdExpireWarning and forces a change once pwdMaxAge has passed', () => {
    expect(passwordStatus(changed(80), policy, now)).toMatchObject({ warn: true, expired: false, forceChange: false });
    expect(passwordStatus(changed(91), policy, now)).toMatchObject({ warn: false, expired: true, forceChange: true });
  });

  it('forces a change after an administrator reset (pwdReset), without a minimum-age restriction', () => {
    const s = passwordStatus({ changedTime: now, mustChange: true }, policy, now);
    expect(s).toMatchObject({ forceChange: true, expired: false, restrictedUntil: null });
  });

  it('never expires without pwdChangedTime or pwdMaxAge', () => {
    expect(passwordStatus({ changedTime: null, mustChange: false }, policy, now).expired).toBe(false);
    expect(passwordStatus(changed(400), { ...policy, maxAge: 0 }, now).expired).toBe(false);
  });
});

describe('GeneralizedTime', () => {
  it('parses what slapd writes (with and without fractions) and formats whole seconds', () => {
    expect(parseGeneralizedTime('20261121045446Z')).toEqual(new Date('2026-11-21T04:54:46Z'));
    expect(parseGeneralizedTime('20261121045446.508437Z')).toEqual(new Date('2026-11-21T04:54:46.508Z'));
    expect(parseGeneralizedTime('garbage')).toBeNull();
    expect(formatGeneralizedTime(new Date('2026-01-02T03:04:05.678Z'))).toBe('20260102030405Z');
  });
});

describe('verifyPasswordHash', () => {
  it('checks {SSHA} values and pwdHistory entries', async () => {
    const stored = sshaHash('Secret-Pass-2026!');
    expect(await verifyPasswordHash('Secret-Pass-2026!', stored)).toBe(true);
    expect(await verifyPasswordHash('Secret-Pass-2027!', stored)).toBe(false);
    expect(historyValue(`20261121045446Z#1.3.6.1.4.1.1466.115.121.1.40#38#${stored}`)).toBe(stored);
    expect(await verifyPasswordHash('x', '{CRYPT}abc')).toBe(false);
  });
});
