/**
 * A request kind, as handed to the lifecycle (REQUEST-LIFECYCLE.md "The shape"): its workflow id prefix and
 * type, transition table, the permission a reviewer needs, and whether its approval has effects outside the
 * database. Pure data and functions, shared by workflow code, the worker and the API.
 */
import type { WorkflowKind } from '@portal/contract/statuses';

export interface RequestKindDefinition<S extends string = string> {
  kind: WorkflowKind;
  /** Workflow ids are `<idPrefix>-<requestId>` (ARCHITECTURE.md). */
  idPrefix: string;
  /** The workflow function's name, as registered by the worker. */
  workflowType: string;
  /** Label of the request in the Temporal UI's static summary, e.g. 'Access change request'. */
  label: string;
  initialStatus: S;
  /** True when `status` ends the request (its form locks; the workflow completes). */
  isResolved(status: S): boolean;
  /** True when a request in `from` may be saved as `to`. */
  canTransition(from: S, to: S): boolean;
  /** The status whose save runs the kind's outside effects first (rule 3), or null when it has none. */
  outsideEffectsOn: S | null;
  /** Portal permission a reviewer needs to save (000 §6). */
  reviewPermission: string;
  /** True when requests of the kind may carry approval stages (docs/decisions.md "Approval policies"). */
  approvalStages?: boolean;
}

/** The workflow id of a request of `def`'s kind. */
export const workflowIdOf = (def: Pick<RequestKindDefinition, 'idPrefix'>, requestId: number): string =>
  `${def.idPrefix}-${requestId}`;
