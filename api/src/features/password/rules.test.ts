import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_POLICY as policy } from '@portal/directory';
import { brokenRules, passwordRules, ruleText } from './rules';

describe('password rules (000 §3 Password rule, §5)', () => {
  const rules = passwordRules(policy);

  it('lists every rule with the numbers of the policy', () => {
    expect(rules.minLength?.text).toBe('At least 12 characters long');
    expect(ruleText(policy, 'history')).toBe('Must not be your current password or one of your last 5 passwords');
    expect(ruleText(policy, 'minAge')).toBe('You may change your password once every 24 hours');
    expect(passwordRules({ ...policy, inHistory: 0, minAge: 0 })).not.toHaveProperty('history');
  });

  it('names each rule a password breaks, and none for a good one', () => {
    expect(brokenRules(policy, 'Good-Password-2026!', 'jordan')).toEqual([]);
    expect(brokenRules(policy, 'short', 'jordan')).toEqual([
      rules.minLength!.text,
      rules.uppercase!.text,
      rules.digit!.text,
      rules.special!.text,
    ]);
    expect(brokenRules(policy, ' Leading-space-2026!', 'jordan')).toEqual([rules.noSpaces!.text]);
    expect(brokenRules(policy, 'My-JORDAN-Pass-2026!', 'jordan')).toEqual([rules.notUsername!.text]);
    expect(brokenRules(policy, `Aa1!${'x'.repeat(130)}`, 'jordan')).toEqual([rules.maxLength!.text]);
  });
});
