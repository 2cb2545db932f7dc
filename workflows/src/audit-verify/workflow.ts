/**
 * One verification of the audit trail (see ./types): a single activity, retried a few times (PostgreSQL away)
 * and then failed, so an ADMIN's 'Verify now' ends and can be pressed again instead of waiting on an outage.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { AuditVerifyActivities, AuditVerifyInput, AuditVerifySummary } from './types';

export async function auditVerifyWorkflow(input: AuditVerifyInput): Promise<AuditVerifySummary> {
  const { verifyAuditTrailStep } = proxyActivities<AuditVerifyActivities>({
    startToCloseTimeout: (input.stepTimeout ?? '30 minutes') as '30 minutes',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
  });
  return verifyAuditTrailStep({ witness: input.witness, actor: input.actor });
}
