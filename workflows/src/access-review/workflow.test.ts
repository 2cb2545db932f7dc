// The campaign workflow's refusal texts: workflow code imports no zod, so it keeps its own copy of the
// contract's message, which must stay the same (the API shows the workflow's refusal as it is).
import { describe, expect, it } from 'vitest';
import { ACCESS_REVIEW_MESSAGES } from '@portal/contract';
import { ALREADY_CLOSING } from './workflow';
import { accessReviewInputOf } from './start';

describe('access review workflow texts and input', () => {
  it('refuses a close or cancel once closing with the contract’s alreadyClosing message', () => {
    expect(ALREADY_CLOSING).toBe(ACCESS_REVIEW_MESSAGES.alreadyClosing);
  });

  it('turns days into Temporal durations; no reminders at 0 days', () => {
    expect(accessReviewInputOf(3, { name: 'Q', durationDays: 14, reminderEveryDays: 0, createdByLabel: 'a' })).toEqual({
      campaignId: 3,
      duration: '14 days',
      reminderEvery: null,
      mailDeadline: undefined,
    });
  });
});
