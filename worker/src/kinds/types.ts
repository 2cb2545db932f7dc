/**
 * What the worker needs of each request kind (REQUEST-LIFECYCLE.md "The shape"): how its request row is read
 * and written inside the commit transaction, the effects of a save, its resolution mail, and the reads of
 * the reconciler and the reviewers' digest. The lifecycle's activities are written once over this interface.
 */
import type { Prisma, PrismaClient } from '@portal/db';
import type { CommitResult, CommitSaveInput, RequestKindDefinition } from '@portal/workflows';

export type Tx = Prisma.TransactionClient;

/** The lifecycle's view of a stored request row. */
export interface StoredRequest {
  status: string;
  reviewerComments: string;
  sysaidTicket: string;
  /** Number of saves committed (the row's versionno). */
  version: number;
  subjectUserId: number;
}

/** A refusal of the commit: the save leaves state and version unchanged (422 / 304). */
export type Refusal = Extract<CommitResult, { outcome: 'REFUSED' }>;

/** A filed row whose workflow is not known to run (rule 1). */
export interface UnstartedRequest {
  requestId: number;
  subjectUserId: number;
  requesterUserId: number;
  subjectLabel: string;
  requesterLabel: string;
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
  resolutionMail(prisma: PrismaClient, requestId: number, portalUrl: string): Promise<MailContent>;
  /** Unresolved requests filed before `before`. */
  waiting(prisma: PrismaClient, before: Date): Promise<WaitingRequest[]>;
  /** Rows filed before `before` whose workflow start was never confirmed. */
  unstarted(prisma: PrismaClient, before: Date): Promise<UnstartedRequest[]>;
  markStarted(tx: Tx, requestId: number): Promise<void>;
}
