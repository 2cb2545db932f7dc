// The resolution mail of a portal user's request, to the letter (the texts users receive must not drift).
import { describe, expect, it } from 'vitest';
import { userResolutionMail } from './request-mail';

const user = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' };

describe('userResolutionMail', () => {
  it('greets, says the outcome, points to the history and signs', () => {
    const request = { id: 12, requestStatus: 'APPROVED' as const, reviewerComments: '' };
    expect(userResolutionMail(user, request, 'access', ['Line one.', 'Line two.'], 'https://portal')).toEqual({
      to: 'ada@example.org',
      subject: 'Portal Gateway: your access request #12 was approved',
      text: [
        'Dear Ada Lovelace,',
        '',
        'Line one.',
        'Line two.',
        '',
        'You can see your requests under Profile, Requests History: https://portal/app/profile?tab=history&redirect=true',
        '',
        'Portal Gateway User Support',
      ].join('\n'),
    });
  });

  it("adds the reviewer's comments after the outcome", () => {
    const request = { id: 3, requestStatus: 'REJECTED' as const, reviewerComments: 'not needed' };
    const mail = userResolutionMail(user, request, 'profile-change', ['Outcome.'], 'https://portal');
    expect(mail.subject).toBe('Portal Gateway: your profile-change request #3 was rejected');
    expect(mail.text.split('\n').slice(2, 5)).toEqual(['Outcome.', 'Reviewer comments: not needed', '']);
  });
});
