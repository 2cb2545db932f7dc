/**
 * One run of the audit sealer (see ./types): sealing steps until caught up. A step that fails (PostgreSQL
 * away, frozen past its timeout) is retried with backoff, without end: the schedule skips the runs that fall
 * due meanwhile, and once PostgreSQL answers, this run catches up on everything committed since, without gaps
 * (each step starts from the newest seal in PostgreSQL, not from anything this run remembers).
 */
import { proxyActivities } from '@temporalio/workflow';
import {
  type AuditSealActivities,
  type AuditSealInput,
  type AuditSealResult,
  DEFAULT_AUDIT_SEAL_MAX_ROWS,
} from './types';

export async function auditSealWorkflow(input: AuditSealInput = {}): Promise<AuditSealResult> {
  const { sealAuditStep } = proxyActivities<AuditSealActivities>({
    startToCloseTimeout: (input.stepTimeout ?? '2 minutes') as '2 minutes',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
  });
  const maxRows = input.maxRowsPerSeal ?? DEFAULT_AUDIT_SEAL_MAX_ROWS;
  const maxSeals = input.maxSeals ?? 200;
  let seals = 0;
  let rows = 0;
  let newest: AuditSealResult['newest'];
  for (;;) {
    const step = await sealAuditStep({ maxRows });
    newest = step.newest;
    if (step.sealed) {
      seals += 1;
      rows += step.sealed.rows;
    }
    if (!step.more || seals >= maxSeals) break;
  }
  return { seals, rows, newest };
}
