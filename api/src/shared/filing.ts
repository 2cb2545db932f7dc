/**
 * Filing in the API, for every kind including proxy batches (REQUEST-LIFECYCLE rule 1): commit the row and
 * its audit row under the kind's filing lock, then start its workflow and mark the row started, through the
 * workflows package's one `commitThenStart`. A start that fails after the commit still answers success: the
 * worker's reconciler starts it. A filing transaction that fails answers 503 (nothing was committed).
 */
import { msToNumber } from '@temporalio/common/lib/time';
import { MESSAGES } from '@portal/contract';
import { type FilingLockKind, type Prisma, type SqlRunner, filingLockStatement, lockFiling } from '@portal/db';
import {
  type LifecycleInput,
  type RequestKindDefinition,
  type WorkflowStart,
  commitThenStart,
  requestStart,
} from '@portal/workflows';
import type { Deps } from '../deps';
import { HttpError, unavailable } from '../http/errors';
import { DATABASE_DEADLINE_MS } from './deadline';
import { inSqlTransaction } from './sql';

/** How long (ms) filing waits for the workflow start before leaving it to the reconciler. */
const START_DEADLINE_MS = 5_000;

/**
 * How long (ms) the filing transaction may take before it is rolled back and answered 503: the routes'
 * deadline on PostgreSQL (a frozen database, a filing lock held elsewhere).
 */
const FILING_TIMEOUT_MS = DATABASE_DEADLINE_MS;

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

type Inserted<T> = Promise<{ requestId: number; result: T }>;

/**
 * Inside the filing transaction, under the lock: re-check what the lock protects, insert row + audit row. In a
 * Prisma interactive transaction (`insert`), or on one pool connection (`insertSql`, shared/sql.ts
 * `inSqlTransaction`) for a filing written in SQL.
 */
type Insert<T> =
  | { insert(tx: Prisma.TransactionClient): Inserted<T>; insertSql?: never }
  | { insertSql(run: SqlRunner): Inserted<T>; insert?: never };

export type FileOptions<T> = Insert<T> & {
  /** The filing lock: the kind and its subject (a user id; a registration's address hash; a batch's proxy). */
  lock: { kind: FilingLockKind; id: number };
  /** The typed start of the filed row's workflow (`result`: what the insert answered). */
  start(requestId: number, result: T): WorkflowStart;
  /** Marks the row's workflow as started (the reconciler skips it). */
  markStarted(requestId: number): Promise<void>;
};

/**
 * Files one row (rule 1). @returns the insert's result and whether the workflow start was confirmed.
 * @throws the insert's HttpError; HttpError 503 when the transaction fails.
 */
export async function fileAndStart<T>(
  deps: Deps,
  opts: FileOptions<T>,
): Promise<{ requestId: number; result: T; started: boolean }> {
  const filed = await commitThenStart(
    { client: deps.temporal, taskQueue: deps.cfg.TEMPORAL_TASK_QUEUE, deadlineMs: START_DEADLINE_MS },
    {
      commit: async () => {
        try {
          if (opts.insertSql) {
            return await inSqlTransaction(deps.prisma, opts.insertSql, {
              timeoutMs: FILING_TIMEOUT_MS,
              opening: filingLockStatement(opts.lock.kind, opts.lock.id),
            });
          }
          const insert = opts.insert;
          return await deps.prisma.$transaction(
            async (tx) => {
              await lockFiling(tx, opts.lock.kind, opts.lock.id);
              return insert(tx);
            },
            // Waiting for a pooled connection counts against the same deadline: Prisma's default wait of 2 s
            // answered a filing 503 on a busy machine although nothing had failed.
            { timeout: FILING_TIMEOUT_MS, maxWait: FILING_TIMEOUT_MS },
          );
        } catch (err) {
          if (err instanceof HttpError) throw err;
          console.error(`filing: the ${opts.lock.kind} filing transaction failed: ${describe(err)}`);
          throw unavailable(MESSAGES.access.newRequestFailed);
        }
      },
      startOf: (row) => opts.start(row.requestId, row.result),
      markStarted: (row) => opts.markStarted(row.requestId),
    },
  );
  const { requestId, result } = filed.committed;
  if (filed.start === 'DEFERRED') {
    console.warn(
      `filing: ${opts.start(requestId, result).workflowId} committed, start deferred to the reconciler: ${describe(filed.error)}`,
    );
  }
  return { requestId, result, started: filed.start !== 'DEFERRED' };
}

export interface FilingParty {
  id: number;
  /** e.g. 'Jane Doe (jdoe)', for the Temporal UI's summary. */
  label: string;
}

/** The start of a request kind's workflow as the API files it: the deadlines from configuration. */
export const lifecycleStartOf =
  (
    deps: Deps,
    def: RequestKindDefinition,
    subject: FilingParty,
    requester: FilingParty,
    more: Pick<LifecycleInput, 'approvalStages'> = {},
  ) =>
  (requestId: number): WorkflowStart =>
    requestStart(
      def,
      {
        requestId,
        subjectUserId: subject.id,
        requesterUserId: requester.id,
        notificationDeadline: deps.cfg.MAIL_DEADLINE,
        writeDeadline: deps.cfg.WRITE_DEADLINE,
        writeAttemptTimeout: deps.cfg.WRITE_ATTEMPT_TIMEOUT,
        ...(deps.cfg.APPROVAL_WORKING_DAY && def.approvalStages
          ? { approvalDayMs: msToNumber(deps.cfg.APPROVAL_WORKING_DAY as '1s') }
          : {}),
        ...more,
      },
      { subjectLabel: subject.label, requesterLabel: requester.label },
    );
