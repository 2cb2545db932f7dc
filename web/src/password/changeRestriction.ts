import dayjs from 'dayjs';

/**
 * When the password-change time restriction (the ppolicy minimum age, 'You may change your password once every
 * 24 hours') ends. The API answers only whether a change is possible now (000 §7 can_change_password_now), so
 * the browser remembers when this person last changed their password here and reads the period from the rule
 * text; a change made elsewhere leaves the time unknown and the screen says so in general terms.
 */

const KEY = 'passwordChangedAt';

/** Remembers that `username` changed their password now. */
export function rememberPasswordChange(username: string, at = Date.now()): void {
  localStorage.setItem(`${KEY}:${username}`, String(at));
}

/** The period of the minimum-age rule text in milliseconds ('once every 24 hours', 'once every hour'). */
export function minAgeMs(ruleText: string): number | null {
  const match = /once every (?:(\d+) )?hours?/.exec(ruleText);
  if (!match) return null;
  return Number(match[1] ?? 1) * 3_600_000;
}

/**
 * The sentence under the minimum-age rule: from when a change is possible, when this browser saw the last
 * change; otherwise that it is possible once the period has passed since the last change.
 */
export function restrictionText(ruleText: string, username: string | null | undefined): string {
  const period = minAgeMs(ruleText);
  const changedAt = username ? Number(localStorage.getItem(`${KEY}:${username}`)) : 0;
  if (period && changedAt && changedAt + period > Date.now()) {
    return `Your password was changed recently. You can change it again from ${dayjs(changedAt + period).format('MM/DD/YYYY h:mm A')}.`;
  }
  return 'Your password was changed recently. You can change it again once that time has passed since the last change.';
}
