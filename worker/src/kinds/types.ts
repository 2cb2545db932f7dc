/**
 * What the worker needs of each request kind (REQUEST-LIFECYCLE.md "The shape"): how its request row is read
 * and written inside the commit transaction, the effects of a save, its resolution mail, and the reads of
 * the reconciler and the reviewers' digest. The lifecycle's activities are written once over this interface.
 */
import type { Prisma, PrismaClient } from '@portal/db';
import type { DirectoryConfig } from '@portal/directory';
import type { CommitRefusal, CommitSaveInput, OutsideEffectsInput, RequestKindDefinition } from '@portal/workflows';

export type Tx = Prisma.TransactionClient;

/** The lifecycle's view of a stored request row. */
export interface StoredRequest {
  status: string;
  reviewerComments: string;
  sysaidTicket: string;
  /** Number of saves committed (the row's versionno). */
  version: number;
  /** The user whose access the save writes (locked by the commit); null when none exists yet (a registration). */
  subjectUserId: number | null;
}

/** A refusal of the commit: the save leaves state and version unchanged (422 / 304). */
export type Refusal = CommitRefusal;

/** A filed row whose workflow is not known to run (rule 1). */
export interface UnstartedRequest {
  requestId: number;
  subjectUserId: number;
  requesterUserId: number;
  subjectLabel: string;
  requesterLabel: string;
  /** The stages of an access-change request's approval plan (docs/decisions.md "Approval policies"). */
  approvalStages?: number;
}

/** One line of the reviewers' digest. */
export interface WaitingRequest {
  label: string;
  requestId: number;
  status: string;
  subject: string;
  filedAt: Date;
}

export interface MailContent {
  to: string;
  subject: string;
  text: string;
  /**
   * Renders the final text once the outbox claimed the send (rule 5): where a secret is minted (a
   * set-password link), so only an attempt that sends mints it and the secret never leaves the activity.
   * `secret(purpose)` is the outbox row's secret (outbox `rowSecret`): every attempt of the mail gets the same.
   */
  render?: (secret: (purpose: string) => string) => Promise<string>;
}

/** What an undo of outside effects changed, for its audit row. */
export interface UndoneEffect {
  action: string;
  entityType: string;
  entityId: string;
  before: Prisma.InputJsonValue;
  after: Prisma.InputJsonValue;
}

/**
 * Writes the audit row of what an undo changed, in `tx`: the transaction that holds the address lock, so whoever
 * takes the lock next finds the undo audited (the save sent again after a 503, whose undo then finds nothing).
 */
export type UndoAudit = (tx: Tx, undone: UndoneEffect) => Promise<void>;

/** What a kind's outside effects may use (rule 3). */
export interface OutsideEffectsContext {
  prisma: PrismaClient;
  /** Absent when the worker runs without a directory; a kind that needs it fails its save. */
  directory?: DirectoryConfig;
}

export interface KindStore {
  definition: RequestKindDefinition;
  /** The audit trail's entity type of the request rows, e.g. 'AccessModRequest'. */
  entityType: string;
  load(tx: Tx, requestId: number): Promise<StoredRequest | null>;
  /** Checks that need the database; a refusal leaves everything unchanged. */
  check(tx: Tx, input: CommitSaveInput, row: StoredRequest): Promise<Refusal | null>;
  /** The save's database effects, inside the commit transaction (after the user's access lock is taken). */
  effects(tx: Tx, input: CommitSaveInput, row: StoredRequest): Promise<void>;
  /** Writes the request row of the save. */
  write(tx: Tx, input: CommitSaveInput): Promise<void>;
  /** The resolution mail, or null when the resolution sends none (a deleted registration). */
  resolutionMail(prisma: PrismaClient, requestId: number, portalUrl: string): Promise<MailContent | null>;
  /** Effects outside the database before the `outsideEffectsOn` save's commit (rule 3): idempotent. */
  applyOutsideEffects?(ctx: OutsideEffectsContext, input: OutsideEffectsInput): Promise<Refusal | null | undefined>;
  /**
   * Undoes `applyOutsideEffects` (issue 21 case 2), idempotently; what it changed is audited through `audit`
   * before the address lock is let go (nothing when there was nothing to undo).
   */
  undoOutsideEffects?(ctx: OutsideEffectsContext, input: OutsideEffectsInput, audit: UndoAudit): Promise<void>;
  /** Unresolved requests filed before `before`. */
  waiting(prisma: PrismaClient, before: Date): Promise<WaitingRequest[]>;
  /** Rows filed before `before` whose workflow start was never confirmed. */
  unstarted(prisma: PrismaClient, before: Date): Promise<UnstartedRequest[]>;
  markStarted(tx: Tx, requestId: number): Promise<void>;
}
