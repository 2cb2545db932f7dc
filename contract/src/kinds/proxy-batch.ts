/**
 * Proxy bulk access-change batches (001 §2.7, §3 Proxy capability / run summary / per-user result, §4 Proxy
 * submission, §8 Proxy outcomes, §9): the batch calls' bodies and answers (not in the spec: designed in its
 * style, docs/api.md), the spec's texts, and the requester-comment prefix marker (000 §3 Proxy access-change
 * request fields) that records proxy and subject.
 */
import { z } from 'zod';
import { BodyIdSchema } from '../ids';
import { FIELD_LIMITS } from '../limits';
import { AccessControlSchema } from '../schemas';
import { REQUEST_TYPES } from '../statuses';
import { textSchema } from '../text';

/** 001 §8 Proxy outcomes, word for word. */
export const PROXY_MESSAGES = {
  noPermission: "Sorry, you don't have permission to request access changes for others.",
  contactSupport: 'Please contact User Support if you feel this is in error.',
  selectUser: 'You must select at least one user to enable this section.',
  notSubmittedTitle: 'Access-Change Request NOT Submitted',
  notSubmittedNoData: 'Your request was not submitted because no data was provided.',
  notSubmittedErrors: 'Your request was not submitted due to one or more errors with the provided data.',
  submittedTitle: 'Access-Change Request Submitted',
  submitted: (n: number, successes: number, failures: number) =>
    `Your request was submitted for ${n} users with ${successes} successes and ${failures} failures.`,
  activeRequestExists: '(an active request already exists for this user)',
  formTitle: 'Request Access For Your Selected Users',
  pageTitle: 'Request Access-Change for Other Users',
  unaffiliated: 'unaffiliated users',
} as const;

/** 001 §4 Proxy submission: the internal status of a user skipped because an active request exists. */
export const ACTIVE_REQUEST_EXISTS_STATUS = 601;

/** 001 §9: the proxy user list load is debounced by 1000 ms; proxy alerts stay 10000 ms. */
export const PROXY_TIMINGS = { userLoadDebounceMs: 1000, alertMs: 10_000, resetOverlayMs: 500 } as const;

/** At most this many users in one batch (the bench runs 1,000). */
export const PROXY_BATCH_MAX_USERS = 2000;

/**
 * POST /rest/secure/user_access_mod_request/proxy_batch body: the selected users (in the order they are
 * filed), 1 to PROXY_BATCH_MAX_BLOCKS role blocks of distinct study roles (every user gets one request per
 * block, in order: NEW when they do not hold the block's role, CHANGE when they do), and
 * the proxy's comments (001 §5: 250 on the proxy bulk form).
 */
/** At most this many role blocks in one batch (each selected user gets one request per block). */
export const PROXY_BATCH_MAX_BLOCKS = 10;

export const StartProxyBatchBodySchema = z.object({
  portalUserIds: z.array(BodyIdSchema).min(1).max(PROXY_BATCH_MAX_USERS),
  accessControls: z
    .array(AccessControlSchema)
    .min(1)
    .max(PROXY_BATCH_MAX_BLOCKS)
    // 001 §5: each study role once per request.
    .refine((blocks) => new Set(blocks.map((b) => b.roleName)).size === blocks.length, { message: 'unique' }),
  requesterComments: textSchema(FIELD_LIMITS.proxyRequesterComments).default(''),
});
export type StartProxyBatchBody = z.infer<typeof StartProxyBatchBodySchema>;

export const PROXY_BATCH_STATUSES = ['RUNNING', 'COMPLETED', 'ABORTED'] as const;
export type ProxyBatchStatus = (typeof PROXY_BATCH_STATUSES)[number];

/**
 * 001 §3 Proxy run summary. `abort*` are null unless the run aborted: the first user answered 422 or 304, or
 * the batch's workflow closed abnormally (then `abortStatusCode` stays null; docs/api.md).
 */
export const ProxyRunSummarySchema = z.object({
  abortedProcessing: z.boolean(),
  abortStatusCode: z.number().int().nullable(),
  abortStatusText: z.string().nullable(),
  abortRequestNum: z.number().int().nullable(),
  totalRequests: z.number().int(),
  numSuccesses: z.number().int(),
  numFailures: z.number().int(),
});
export type ProxyRunSummary = z.infer<typeof ProxyRunSummarySchema>;

/**
 * 001 §3 Per-user result. `responseStatus` is null until the user's turn came (200 filed, 601 skipped, 422
 * invalid, 304 no changes); `requestId` is the filed access-change request.
 */
export const ProxyUserResultSchema = z.object({
  requestNum: z.number().int(),
  /** The role block this result is for (1-based, the batch's `accessControls` order). */
  blockNum: z.number().int(),
  success: z.boolean().nullable(),
  activeRequestAlreadyExistsForUser: z.boolean(),
  responseStatus: z.number().int().nullable(),
  portalUserId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  requestId: z.number().int().nullable(),
  requestType: z.enum(REQUEST_TYPES).nullable(),
  fieldErrors: z.record(z.string(), z.array(z.string())).nullable(),
});
export type ProxyUserResult = z.infer<typeof ProxyUserResultSchema>;

/**
 * The run summary's counts in one unit, users (001 §8 'submitted for {n} users with {s} successes and {f}
 * failures'; 001 §9 one user per call): with several role blocks a user has one result per block, and counts
 * as a failure when any of them failed, as a success when all succeeded; a user still being filed is neither.
 */
export function userOutcomes(results: readonly Pick<ProxyUserResult, 'portalUserId' | 'success'>[]): {
  users: number;
  successes: number;
  failures: number;
} {
  const byUser = new Map<number, (boolean | null)[]>();
  for (const r of results) byUser.set(r.portalUserId, [...(byUser.get(r.portalUserId) ?? []), r.success]);
  let successes = 0;
  let failures = 0;
  for (const outcomes of byUser.values()) {
    if (outcomes.includes(false)) failures++;
    else if (outcomes.every((o) => o === true)) successes++;
  }
  return { users: byUser.size, successes, failures };
}

/** One batch as listed (GET .../proxy_batch) and read (GET .../proxy_batch/{id}, which adds `results`). */
export const ProxyBatchSchema = z.object({
  id: z.number().int(),
  workflowId: z.string(),
  status: z.enum(PROXY_BATCH_STATUSES),
  proxyUserId: z.number().int(),
  accessControls: z.array(AccessControlSchema),
  requesterComments: z.string(),
  processed: z.number().int(),
  summary: ProxyRunSummarySchema,
  sysdat: z.string(),
  finishedAt: z.string().nullable(),
});
export type ProxyBatch = z.infer<typeof ProxyBatchSchema>;

export const ProxyBatchDetailSchema = ProxyBatchSchema.extend({ results: z.array(ProxyUserResultSchema) });
export type ProxyBatchDetail = z.infer<typeof ProxyBatchDetailSchema>;

/** A person in the comment marker. */
export interface ProxyParty {
  name: string;
  email: string;
  id: number;
}

/**
 * The requester comment of a proxy-filed request (000 §3, 001 §6): the configured prepend segment `marker`
 * (PROXY_COMMENT_MARKER) with the proxy's and the subject's name, email and id as two small JSON objects, then
 * the proxy's own comment.
 */
export function proxyComment(marker: string, proxy: ProxyParty, subject: ProxyParty, comment: string): string {
  const json = (p: ProxyParty) => JSON.stringify({ name: p.name, email: p.email, id: p.id });
  return `${marker} proxy=${json(proxy)} subject=${json(subject)}${comment ? `\n${comment}` : ''}`;
}

const PartySchema = z.object({ name: z.string(), email: z.string(), id: z.number().int() });

/**
 * Reads the marker back: proxy, subject and the proxy's own comment; null for a comment without one.
 * `markers` are every marker ever configured (PortalSettings.proxyCommentMarkers): stored comments keep the
 * marker they were filed with.
 */
export function parseProxyComment(
  text: string,
  markers: readonly string[],
): { proxy: ProxyParty; subject: ProxyParty; comment: string } | null {
  const opening = markers.map((m) => `${m} proxy=`).find((o) => text.startsWith(o));
  if (!opening) return null;
  // JSON escapes quotes and line breaks, so the first line ends the marker and ` subject={"` only occurs
  // at the boundary between the two objects.
  const newline = text.indexOf('\n');
  const head = newline < 0 ? text : text.slice(0, newline);
  const split = head.indexOf(' subject={"');
  if (split < 0) return null;
  try {
    const proxy = PartySchema.parse(JSON.parse(head.slice(opening.length, split)));
    const subject = PartySchema.parse(JSON.parse(head.slice(split + ' subject='.length)));
    return { proxy, subject, comment: newline < 0 ? '' : text.slice(newline + 1) };
  } catch {
    return null;
  }
}
