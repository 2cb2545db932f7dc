/**
 * The audit row of a save's effect, written inside the commit (REQUEST-LIFECYCLE rules 2 and 4): by the
 * save's actor, in its workflow, keyed `<workflowId>:<version>:<part>` beside the commit's own
 * `<workflowId>:<version>` row, so each row of one save has a key of its own.
 */
import { type AuditEntry, recordAudit } from '@portal/db';
import type { CommitSaveInput } from '@portal/workflows';
import type { Tx } from './types';

/** What the effect's audit row says: what changed, and how. */
export type EffectEvent = Pick<AuditEntry, 'entityType' | 'entityId' | 'action' | 'before' | 'after'>;

/** Writes the audit row of `event`, the `part` ('user', 'apply', ...) of the save `input`. */
export async function auditEffect(tx: Tx, input: CommitSaveInput, part: string, event: EffectEvent): Promise<void> {
  await recordAudit(tx, input.actor, {
    ...event,
    workflowId: input.workflowId,
    idempotencyKey: `${input.workflowId}:${input.version}:${part}`,
  });
}
