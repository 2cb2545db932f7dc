/**
 * Query keys of the access review screens (issue 25 "Access review campaigns"). `all` reaches every one, so a
 * decision or an admin action (close, cancel) refreshes the reviewer's counts and the campaign pages together.
 */
import { myAccessReviewsKey } from '../../lib/myAccessReviews';

export const reviewKeys = {
  all: ['accessReviews'] as const,
  mine: myAccessReviewsKey,
  items: ['accessReviews', 'items'] as const,
  campaigns: ['accessReviews', 'campaigns'] as const,
  campaign: (id: number) => ['accessReviews', 'campaigns', 'one', id] as const,
  schedules: ['accessReviews', 'schedules'] as const,
};
