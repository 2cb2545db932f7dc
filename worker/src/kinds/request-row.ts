/**
 * A request kind's row as the lifecycle's activities read and write it (REQUEST-LIFECYCLE rules 1 and 2).
 * Every kind's table carries the same lifecycle columns (reviewer comments, ticket, `versionno`,
 * `lastModifiedBy`, `dchng`, `workflowStartedAt`) beside its own status column, so the commit's read of the
 * stored row, the save's write of it and the started mark are written here once; a kind names its table,
 * how its status and subject are read, and the columns of its own that a save writes (`requestRow`).
 */
import type { CommitSaveInput } from '@portal/workflows';
import type { KindStore, StoredRequest, Tx } from './types';

/** The lifecycle's columns of every request row that the commit reads. */
export interface ReviewColumns {
  reviewerComments: string;
  sysaidTicket: string;
  versionno: number;
}

/** The lifecycle's columns a save writes beside the kind's own. */
export interface SavedColumns extends ReviewColumns {
  lastModifiedBy: string;
  dchng: Date;
}

/** The started mark's update: it sets only a row not yet marked (rule 1). */
export interface StartedMark {
  where: { id: number; workflowStartedAt: null };
  data: { workflowStartedAt: Date };
}

/** The calls made on a kind's table; its Prisma delegate (e.g. `tx.accessModRequest`) satisfies it. */
export interface RequestTable<Row, Own> {
  findUnique(args: { where: { id: number } }): PromiseLike<Row | null>;
  update(args: { where: { id: number }; data: Own & SavedColumns }): PromiseLike<unknown>;
  updateMany(args: StartedMark): PromiseLike<unknown>;
}

/** What a kind's request row has of its own. */
export interface RequestRowSpec<Row, Own> {
  table(tx: Tx): RequestTable<Row, Own>;
  /** The row's status (its `requestStatus`, `registrationStatus`, ...). */
  status(row: Row): string;
  /** The user whose access a save writes (`StoredRequest.subjectUserId`). */
  subjectUserId(row: Row): number | null;
  /** The kind's own columns a save writes: its status column and any choice of the reviewer it keeps. */
  written(input: CommitSaveInput): Own;
}

/** The stored request of `row` as the commit checks it (version and state before the save). */
function storedRequest<Row extends ReviewColumns>(
  spec: Pick<RequestRowSpec<Row, unknown>, 'status' | 'subjectUserId'>,
  row: Row,
): StoredRequest {
  return {
    status: spec.status(row),
    reviewerComments: row.reviewerComments,
    sysaidTicket: row.sysaidTicket,
    version: row.versionno,
    subjectUserId: spec.subjectUserId(row),
  };
}

/** The columns a save writes: the kind's own first, then the lifecycle's, modified now by the save's actor. */
function savedRow<Own>(
  spec: Pick<RequestRowSpec<unknown, Own>, 'written'>,
  input: CommitSaveInput,
): Own & SavedColumns {
  return {
    ...spec.written(input),
    reviewerComments: input.reviewerComments,
    sysaidTicket: input.sysaidTicket,
    versionno: input.version,
    lastModifiedBy: input.actor.username,
    dchng: new Date(),
  };
}

/** The started mark of request `id`, stamped now. */
const startedMark = (id: number): StartedMark => ({
  where: { id, workflowStartedAt: null },
  data: { workflowStartedAt: new Date() },
});

/**
 * The store's `load`, `write` and `markStarted` over the kind's table. `write` raises what the kind's
 * `written` raises (a registration's invalid review payload) before anything is written.
 */
export function requestRow<Row extends ReviewColumns, Own>(
  spec: RequestRowSpec<Row, Own>,
): Pick<KindStore, 'load' | 'write' | 'markStarted'> {
  return {
    async load(tx, requestId) {
      const row = await spec.table(tx).findUnique({ where: { id: requestId } });
      return row && storedRequest(spec, row);
    },
    async write(tx, input) {
      await spec.table(tx).update({ where: { id: input.requestId }, data: savedRow(spec, input) });
    },
    async markStarted(tx, requestId) {
      await spec.table(tx).updateMany(startedMark(requestId));
    },
  };
}
