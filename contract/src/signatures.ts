/**
 * Electronic signatures on access decisions (21 CFR Part 11 §11.50, §11.70, §11.200; docs/decisions.md
 * "Electronic signatures"). Off by default (SIGNATURES=off: every screen and body is the spec's). When on, a
 * signed action is made in two calls: POST SIGNATURE_TICKET_PATH re-enters the credential and names the
 * decision about to be sent (method, path, body) and its meaning, and answers a one-use ticket bound to the
 * decision's digest; the action's own call then carries the ticket in SIGNATURE_HEADER. Nothing is added to
 * the spec's request bodies, and no secret enters workflow input, logs or audit rows.
 */
import { z } from 'zod';
import { textSchema } from './text';
import { PasskeyAssertionSchema } from './passkeys';
import { APPROVAL_TEXTS, STAGE_APPROVERS, type StageDecision } from './approval-policies';

/** The header a signed action's call carries its ticket in. */
export const SIGNATURE_HEADER = 'x-signature-ticket';

/** POST: re-enter the credential, get a ticket for one decision. */
export const SIGNATURE_TICKET_PATH = '/rest/secure/signature/ticket';
/** POST: WebAuthn request options whose challenge includes the decision's digest (a passkey as the credential). */
export const SIGNATURE_PASSKEY_OPTIONS_PATH = '/rest/secure/signature/webauthn/options';

/**
 * What is signed (issue text "What is signed"), one meaning list each:
 * - REQUEST_SAVE: a request save that changes a person's access or portal roles without resolving it.
 * - REQUEST_APPROVAL: a request of any kind resolved APPROVED, a registration's approval.
 * - REQUEST_REJECTION: a request resolved REJECTED, a registration DENIED.
 * - REQUEST_STAGE_APPROVAL / REQUEST_STAGE_REJECTION: a stage approver's decision of an access-change request's
 *   approval stage (docs/decisions.md "Approval policies"), meaning 'Approved – stage n' / 'Rejected – stage n'.
 * - ACCESS_REVIEW_DECISION: a reviewer's decisions on access review items (a bulk decision is signed once).
 * - CAMPAIGN_CLOSE: a person closing an access review campaign.
 * - USER_ACCESS_EDIT: an edit of a person's access or portal roles on the user detail.
 * - USER_STATUS: an activation or deactivation.
 */
export const SIGNATURE_ACTIONS = [
  'REQUEST_SAVE',
  'REQUEST_APPROVAL',
  'REQUEST_REJECTION',
  'REQUEST_STAGE_APPROVAL',
  'REQUEST_STAGE_REJECTION',
  'ACCESS_REVIEW_DECISION',
  'CAMPAIGN_CLOSE',
  'USER_ACCESS_EDIT',
  'USER_STATUS',
] as const;
export type SignatureAction = (typeof SIGNATURE_ACTIONS)[number];

/** What each action is called where a list of signatures names it (the user detail's signed decisions). */
export const SIGNATURE_ACTION_LABELS: Record<SignatureAction, string> = {
  REQUEST_SAVE: 'Request saved',
  REQUEST_APPROVAL: 'Approval',
  REQUEST_REJECTION: 'Rejection',
  REQUEST_STAGE_APPROVAL: 'Stage approval',
  REQUEST_STAGE_REJECTION: 'Stage rejection',
  ACCESS_REVIEW_DECISION: 'Access review decision',
  CAMPAIGN_CLOSE: 'Campaign closed',
  USER_ACCESS_EDIT: 'Access or portal roles edited',
  USER_STATUS: 'Status changed',
};

/**
 * The actions of a stage decision (docs/decisions.md "Approval policies"): their meaning is not chosen but
 * fixed by the decision and its stage (`stageSignatureMeaning`), so SIGNATURE_MEANINGS does not configure them.
 */
export const STAGE_SIGNATURE_ACTIONS = ['REQUEST_STAGE_APPROVAL', 'REQUEST_STAGE_REJECTION'] as const;

/** What a stage decision is signed as: REQUEST_STAGE_APPROVAL or REQUEST_STAGE_REJECTION. */
export const stageSignatureAction = (decision: StageDecision): (typeof STAGE_SIGNATURE_ACTIONS)[number] =>
  decision === 'APPROVED' ? 'REQUEST_STAGE_APPROVAL' : 'REQUEST_STAGE_REJECTION';

/** The one meaning a decision of stage `stage` is signed with: 'Approved – stage n' / 'Rejected – stage n'. */
export const stageSignatureMeaning = (decision: StageDecision, stage: number): string =>
  APPROVAL_TEXTS.signatureMeaning(decision, stage);

const stageMeanings = (decision: StageDecision): string[] =>
  STAGE_APPROVERS.map((_, i) => stageSignatureMeaning(decision, i + 1));

/** The meanings offered per action unless SIGNATURE_MEANINGS configures others (§11.50(a)(3)). */
export const DEFAULT_SIGNATURE_MEANINGS: Record<SignatureAction, string[]> = {
  REQUEST_SAVE: ['Reviewed and applied'],
  REQUEST_APPROVAL: ['Approved'],
  REQUEST_REJECTION: ['Rejected'],
  // One per stage number a plan can have; a ticket's must be its decision's stage (`stageSignatureMeaning`).
  REQUEST_STAGE_APPROVAL: stageMeanings('APPROVED'),
  REQUEST_STAGE_REJECTION: stageMeanings('REJECTED'),
  ACCESS_REVIEW_DECISION: ['Reviewed'],
  CAMPAIGN_CLOSE: ['Closed after review'],
  USER_ACCESS_EDIT: ['Authored', 'Approved'],
  USER_STATUS: ['Approved'],
};

/** How the signer re-entered the credential (§11.200(a)(1)). */
export const SIGNATURE_METHODS = ['PASSWORD', 'PASSKEY'] as const;
export type SignatureMethod = (typeof SIGNATURE_METHODS)[number];

/** The decision a ticket is for: the action's call exactly as it will be sent (its body, query excluded). */
export const SignedDecisionSchema = z.strictObject({
  method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']),
  path: z
    .string()
    .min(1)
    .max(512)
    .regex(/^\/rest\/[A-Za-z0-9_\-/]*$/, 'must be a /rest/ path'),
  body: z.unknown(),
});
export type SignedDecision = z.infer<typeof SignedDecisionSchema>;

/**
 * POST SIGNATURE_TICKET_PATH. `username` is required for the first signature of a session (§11.200(a)(1)(i));
 * `password`, or `assertion` answering SIGNATURE_PASSKEY_OPTIONS_PATH's challenge for the same decision.
 */
export const SignatureTicketBodySchema = z
  .strictObject({
    action: z.enum(SIGNATURE_ACTIONS),
    meaning: textSchema(64, { min: 1 }),
    username: textSchema(256, { min: 1 }).optional(),
    password: textSchema(256, { min: 1, trim: false }).optional(),
    assertion: PasskeyAssertionSchema.optional(),
    decision: SignedDecisionSchema,
  })
  .refine((b) => (b.password === undefined) !== (b.assertion === undefined), {
    message: 'required',
    path: ['password'],
  });
export type SignatureTicketBody = z.infer<typeof SignatureTicketBodySchema>;

/** POST SIGNATURE_PASSKEY_OPTIONS_PATH: the decision and meaning the passkey's challenge is made for. */
export const SignaturePasskeyOptionsBodySchema = z.strictObject({
  action: z.enum(SIGNATURE_ACTIONS),
  meaning: textSchema(64, { min: 1 }),
  decision: SignedDecisionSchema,
});
export type SignaturePasskeyOptionsBody = z.infer<typeof SignaturePasskeyOptionsBodySchema>;

/** The ticket: one use, for the decision it was asked for, until `expiresAt`. */
export const SignatureTicketSchema = z.object({ ticket: z.string(), expiresAt: z.string() });
export type SignatureTicket = z.infer<typeof SignatureTicketSchema>;

/**
 * A signature as shown where its decision is read (§11.50): the signer's printed name at the time, the
 * server's time (ISO 8601 UTC; screens show it in NETWORK_TIME_ZONE), the meaning, and whether the record
 * still matches what was signed (§11.70). `items`: what a bulk decision's one signature names.
 */
export const SignatureViewSchema = z.object({
  id: z.string(),
  signerName: z.string(),
  signerUsername: z.string(),
  signedAt: z.string(),
  meaning: z.string(),
  method: z.enum(SIGNATURE_METHODS),
  action: z.enum(SIGNATURE_ACTIONS),
  valid: z.boolean(),
  items: z.array(z.string()).optional(),
});
export type SignatureView = z.infer<typeof SignatureViewSchema>;

/** What the web app needs to know (served with the portal settings). */
export const SignatureSettingsSchema = z.object({
  enabled: z.boolean(),
  meanings: z.partialRecord(z.enum(SIGNATURE_ACTIONS), z.array(z.string())),
});
export type SignatureSettings = z.infer<typeof SignatureSettingsSchema>;

/** globalErrors of a signed action's refusal (422). */
export const SIGNATURE_ERRORS = {
  /** Signatures are on and the call carried no ticket. */
  required: 'SIGNATURE_REQUIRED',
  /** The ticket is unknown, used, expired, another person's, or for another decision. */
  invalid: 'SIGNATURE_INVALID',
} as const;

/** The texts of signing (shown as they are). */
export const SIGNATURE_TEXTS = {
  passwordWrong: 'The password is not correct. Nothing was signed.',
  usernameWrong: 'Enter your own username to sign.',
  usernameRequired: 'Your username is required for the first signature of a session.',
  meaningInvalid: 'Choose one of the meanings offered.',
  off: 'Electronic signatures are not used on this portal.',
  passkeyRefused: 'The passkey did not sign this decision. Try again, or sign with your password.',
  noPasskey: 'You have no passkey to sign with: sign with your password.',
  signWithPasskey: 'Sign with a passkey',
  required: 'This decision must be signed: enter your password to sign it.',
  invalid: 'The signature was not accepted (used, expired or made for another decision). Sign again.',
  notApplied: 'Signed, not applied',
  mismatch: 'does not match the record',
  matches: 'matches the record',
  legend: 'Electronic signature',
  signedDecisions: 'Signed Decisions',
  signedDecisionsNote: 'The newest signed decisions made on this page about this person, as their records stand now.',
  statement: 'By entering your password you sign this decision electronically (21 CFR Part 11).',
} as const;

/**
 * A checked, not yet used ticket as the API hands it to the writer of the decision (a workflow's commit
 * activity, an API transaction): its row id only, never the ticket itself; the writer takes it in the
 * decision's own transaction, so a ticket is used at most once and only with the decision it signs.
 */
export interface SignatureRef {
  ticketId: string;
}

/**
 * SIGNATURE_MEANINGS' shape: for any of the actions but the stage decisions' (their meaning is their stage's),
 * one to twenty meanings of 1 to 64 characters.
 */
export const SignatureMeaningsSchema = z.partialRecord(
  z.enum(SIGNATURE_ACTIONS).exclude(STAGE_SIGNATURE_ACTIONS),
  z.array(z.string().trim().min(1).max(64)).min(1).max(20),
);

/**
 * What a request save is signed as (docs/decisions.md "Electronic signatures"), the same rule in the API (which
 * refuses a save without the ticket it needs) and the browser (which asks for the signature before sending):
 * a save resolving APPROVED is an approval, REJECTED or DENIED a rejection; any other save that changes the
 * person's access or portal roles (`changesAccess`) is REQUEST_SAVE; a save of comments alone is not signed.
 * @returns the actions the save may be signed as (none: not signed).
 */
export function requestSignatureActions(toStatus: string, changesAccess: boolean): SignatureAction[] {
  if (toStatus === 'APPROVED') return ['REQUEST_APPROVAL'];
  if (toStatus === 'REJECTED' || toStatus === 'DENIED') return ['REQUEST_REJECTION'];
  return changesAccess ? ['REQUEST_SAVE'] : [];
}
