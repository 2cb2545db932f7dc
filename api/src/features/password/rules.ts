/**
 * The password rules (000 §2 Change Password 'Password Requirements', §3 Password rule, §5, §7
 * GET /rest/public/password_validation/rules). The numbers come from the directory's ppolicy, so the list
 * beside the form, the portal's checks on every set / reset / change and slapd's own checks agree. The spec
 * does not show the rule texts; these are the portal's.
 */
import type { PasswordRule, PasswordRules } from '@portal/contract';
import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy } from '@portal/directory';

/** Longest password accepted (the portal's own cap; slapd 2.5 has none). */
export const MAX_PASSWORD_LENGTH = 128;

interface RuleCheck {
  rule: PasswordRule;
  /** True when `password` keeps the rule; rules without a check are enforced elsewhere (slapd, history). */
  check?: (password: string, username: string) => boolean;
}

function hours(seconds: number): string {
  const h = Math.ceil(seconds / 3600);
  return h === 1 ? 'hour' : `${h} hours`;
}

function ruleChecks(policy: PasswordPolicy): RuleCheck[] {
  const min = policy.minLength || DEFAULT_PASSWORD_POLICY.minLength;
  const list: RuleCheck[] = [
    {
      rule: { id: 'minLength', text: `At least ${min} characters long` },
      check: (p) => [...p].length >= min,
    },
    {
      rule: { id: 'maxLength', text: `At most ${MAX_PASSWORD_LENGTH} characters long` },
      check: (p) => [...p].length <= MAX_PASSWORD_LENGTH,
    },
    { rule: { id: 'uppercase', text: 'At least one uppercase letter (A-Z)' }, check: (p) => /[A-Z]/.test(p) },
    { rule: { id: 'lowercase', text: 'At least one lowercase letter (a-z)' }, check: (p) => /[a-z]/.test(p) },
    { rule: { id: 'digit', text: 'At least one number (0-9)' }, check: (p) => /[0-9]/.test(p) },
    {
      rule: { id: 'special', text: 'At least one special character, such as ! @ # $ % & * - _' },
      check: (p) => /[^A-Za-z0-9\s]/.test(p),
    },
    { rule: { id: 'noSpaces', text: 'No spaces at the beginning or end' }, check: (p) => p.trim() === p },
    {
      rule: { id: 'notUsername', text: 'Must not contain your username' },
      check: (p, u) => u.length < 3 || !p.toLowerCase().includes(u.toLowerCase()),
    },
  ];
  if (policy.inHistory > 0) {
    list.push({
      rule: {
        id: 'history',
        text: `Must not be your current password or one of your last ${policy.inHistory} passwords`,
      },
    });
  }
  if (policy.minAge > 0) {
    list.push({ rule: { id: 'minAge', text: `You may change your password once every ${hours(policy.minAge)}` } });
  }
  return list;
}

/** The rules as GET /rest/public/password_validation/rules answers them: an object of rules by id. */
export function passwordRules(policy: PasswordPolicy): PasswordRules {
  return Object.fromEntries(ruleChecks(policy).map(({ rule }) => [rule.id, rule]));
}

/** The text of one rule (for failures slapd reports: history, minimum age). */
export function ruleText(policy: PasswordPolicy, id: 'history' | 'minAge' | 'minLength'): string {
  return passwordRules(policy)[id]?.text ?? id;
}

/** The texts of the rules `password` breaks (empty when it keeps them all). */
export function brokenRules(policy: PasswordPolicy, password: string, username: string): string[] {
  return ruleChecks(policy)
    .filter((r) => r.check && !r.check(password, username))
    .map((r) => r.rule.text);
}
