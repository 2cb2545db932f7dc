import { formatDateTime } from '../shared/format';

/**
 * The sentence under the minimum-age rule ('You may change your password once every 24 hours') while the
 * password-change time restriction stands: from when a change is possible, as the API answers it
 * (`changeAllowedFrom`, pwdChangedTime + pwdMinAge); without a time (e.g. a locked account) in general terms.
 */
export function restrictionText(changeAllowedFrom: string | null | undefined): string {
  if (changeAllowedFrom) {
    return `Your password was changed recently. You can change it again from ${formatDateTime(changeAllowedFrom)}.`;
  }
  return 'Your password cannot be changed right now. Please try again later.';
}
