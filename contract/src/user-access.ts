/**
 * The user access records' wire contract (000 §3 User access record, §7 User access records, §8 User access)
 * and the review's effect on them (001 §2.8): the bodies of POST / PUT user_access, PUT user_access/user/{id},
 * the review payload the workflow carries to its commit, and the texts.
 */
import { z } from 'zod';
import { BodyIdSchema, bodyIntSchema, PathIdSchema } from './ids';
import { UserAccessInputSchema, UserAccessSchema } from './schemas';

/** POST /rest/secure/user_access: a new record for `portalUserId` (a study role the user does not hold). */
export const CreateUserAccessBodySchema = UserAccessInputSchema.extend({ portalUserId: BodyIdSchema });
export type CreateUserAccessBody = z.input<typeof CreateUserAccessBodySchema>;

/**
 * PUT /rest/secure/user_access/{id}: the record's new content at the `versionno` read; `inactive: true`
 * removes the access. The study role of a record does not change (a new role is a new record).
 */
export const UpdateUserAccessBodySchema = UserAccessInputSchema.extend({
  versionno: bodyIntSchema(1),
  inactive: z.boolean().default(false),
});
export type UpdateUserAccessBody = z.input<typeof UpdateUserAccessBodySchema>;

/** PUT /rest/secure/user_access/user/{portalUserId}: the user's whole access as it should be (000 §7). */
export const ReplaceUserAccessBodySchema = z.object({ userAccesses: z.array(UserAccessInputSchema).max(50) });
export type ReplaceUserAccessBody = z.input<typeof ReplaceUserAccessBodySchema>;

/** Answer of the calls that list records (000 §7: "read from content"). */
export const UserAccessContentSchema = z.object({ content: z.array(UserAccessSchema) });
export type UserAccessContent = z.infer<typeof UserAccessContentSchema>;

/** Path params of GET /rest/secure/user_access/{id}/{revisionNo}. */
export const UserAccessRevisionParamsSchema = z.object({ id: PathIdSchema, revisionNo: PathIdSchema });

/** Path params of the calls on one user's access. */
export const PortalUserIdParamsSchema = z.object({ portalUserId: PathIdSchema });

/**
 * What a review save asks its commit to write besides the request row (001 §2.8), carried in the `review`
 * update's payload: the user's portal roles and access records as the reviewer left them. Absent parts are
 * left as they are.
 */
export const AccessReviewPayloadSchema = z.object({
  portalRoleIds: z.array(BodyIdSchema).max(50).optional(),
  userAccesses: z.array(UserAccessInputSchema).max(50).optional(),
});
export type AccessReviewPayload = z.infer<typeof AccessReviewPayloadSchema>;

/** 000 §8 User access texts, word for word. */
export const USER_ACCESS_MESSAGES = {
  loadUserAccessFailed: "Problem loading user's access.",
  loadRecordsFailed: 'Problem loading user access records.',
  createFailed: 'Unable to create new user-access record due to one or more errors.',
  updateRecordFailed: 'Unable to update existing user-access record due to one or more errors.',
  updateUserAccessFailed: "Unable to update the specified user's access due to one or more errors.",
  requestInProgress:
    "Unable to update the specified user's access because they have an open/unresolved access-change request.",
  noChanges: 'There are no changes to submit.',
  updatedTitle: "User's Access Updated",
  updatedText: 'Successfully updated user',
  /** Not in the spec: the record was changed by someone else after it was read (optimistic concurrency). */
  staleRecord: 'This access was changed by someone else after you opened it. Reload to see the latest version.',
} as const;
