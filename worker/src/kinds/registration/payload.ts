/**
 * The registration's review payload as the worker reads it (validated again here: the workflow carries it
 * unchecked), and the non-retryable failure of a payload or row that can never be saved.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { type RegistrationReviewPayload, RegistrationReviewPayloadSchema } from '@portal/contract';
import { NON_RETRYABLE_ERRORS } from '@portal/workflows';

/** @throws a non-retryable INVALID_STORED_BODY when `payload` is not a registration review payload. */
export function readPayload(payload: unknown, requestId: number): RegistrationReviewPayload {
  const parsed = RegistrationReviewPayloadSchema.safeParse(payload ?? { portalRoleIds: [] });
  if (!parsed.success) throw invalid(`registration ${requestId}: invalid review payload`);
  return parsed.data;
}

/**
 * The approval's choices, with the organisation domains the API checked them against (null when the payload
 * predates them). @throws INVALID_STORED_BODY when the payload has none.
 */
export function readApproval(payload: unknown, requestId: number) {
  const { portalRoleIds, approval, organisationEmailDomains } = readPayload(payload, requestId);
  if (!approval) throw invalid(`registration ${requestId}: an approval needs the directory choices`);
  return { portalRoleIds, ...approval, organisationEmailDomains: organisationEmailDomains ?? null };
}

export const invalid = (message: string): ApplicationFailure =>
  ApplicationFailure.nonRetryable(message, NON_RETRYABLE_ERRORS.invalidStoredBody);
