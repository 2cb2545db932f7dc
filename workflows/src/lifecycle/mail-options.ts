/** The options of a mail activity (REQUEST-LIFECYCLE rule 5), shared by the resolution and the stage mails. */
import type { ActivityOptions } from '@temporalio/workflow';
import { NON_RETRYABLE_ERRORS } from './types';

/** The resolution mail: no attempt limit, a long overall deadline (rule 5); SMTP timeouts sit well under 60 s. */
export const mailActivityOptions = (deadline: string): ActivityOptions => ({
  startToCloseTimeout: '60 seconds',
  scheduleToCloseTimeout: deadline,
  retry: {
    initialInterval: '5 seconds',
    backoffCoefficient: 2,
    maximumInterval: '10 minutes',
    nonRetryableErrorTypes: Object.values(NON_RETRYABLE_ERRORS),
  },
});

export const DEFAULT_NOTIFICATION_DEADLINE = '24 hours';
