/**
 * The approval plan of a request being filed (docs/decisions.md "Approval policies"), written once for both
 * filing paths (`fileAccessChange`: the API's request and the proxy batch's user). Pure: the filing's one read
 * brings the active policies of the request's study roles and the LAOs of its sites.
 *
 * Rules:
 * - only NEW and CHANGE requests have a plan; REMOVAL (and profile changes) keep the spec's single review;
 * - a policy applies to a block when it names the block's study role and either no system or one of the
 *   block's `systemAccessIds`; a role's system-narrowed policy and its any-system policy both apply;
 * - the request runs each approver group once, in the order LAO staff → study approvers (then the final User
 *   Support review); when several policies ask for one group, the stage takes the shortest deadline, the
 *   earliest reminder that is still before it, and the escalation group of the earliest policy;
 * - LAO staff decide for the LAOs of the blocks under a LAO-staff policy: their `laoIds`, the LAOs of their
 *   `siteCodes` through active relations, and an AO code that is an LAO's own (as `recordLaosSql`); study
 *   approvers for the studies of the blocks under a study-approver policy.
 */
import {
  type AccessControl,
  type ApprovalPlan,
  type ApprovalStage,
  type PlannedStage,
  type RequestType,
  STAGE_APPROVERS,
} from '@portal/contract';
import { z } from 'zod';

/** An active policy of one of the request's study roles, as the filing read returns it. */
export const FilingPolicySchema = z.object({
  id: z.number().int(),
  roleName: z.string(),
  systemAccessId: z.number().int().nullable(),
  stages: z.array(
    z.object({
      approvers: z.enum(STAGE_APPROVERS),
      deadlineDays: z.number().int(),
      reminderDays: z.number().int(),
      escalateTo: z.enum(['LAO_STAFF', 'STUDY_APPROVERS', 'USER_SUPPORT']),
    }),
  ),
});
export type FilingPolicy = z.infer<typeof FilingPolicySchema>;

/** One site code's LAO (a relation's LAO, or the LAO whose own AO code it is). */
export const SiteLaoSchema = z.object({ siteCode: z.string(), laoCode: z.string() });
export type SiteLao = z.infer<typeof SiteLaoSchema>;

type Block = Pick<AccessControl, 'roleName' | 'siteCodes' | 'laoIds' | 'studyNames' | 'systemAccessIds'>;

const applies = (policy: FilingPolicy, block: Block): boolean =>
  policy.roleName === block.roleName &&
  (policy.systemAccessId === null || block.systemAccessIds.includes(policy.systemAccessId));

const sortedDistinct = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/**
 * The plan of a request of `requestType` for `blocks` under `policies` (see the module's rules), or null when
 * no stage applies (the spec's single review).
 */
export function approvalPlanOf(
  requestType: RequestType,
  blocks: readonly Block[],
  policies: readonly FilingPolicy[],
  siteLaos: readonly SiteLao[],
): ApprovalPlan | null {
  if (requestType === 'REMOVAL') return null;
  const byGroup = new Map<ApprovalStage['approvers'], { stage: PlannedStage; blocks: Block[] }>();
  const ordered = [...policies].sort((a, b) => a.id - b.id);
  for (const block of blocks) {
    for (const policy of ordered.filter((p) => applies(p, block))) {
      for (const s of policy.stages) {
        const entry = byGroup.get(s.approvers);
        if (!entry) {
          byGroup.set(s.approvers, { stage: { ...s, policyIds: [policy.id] }, blocks: [block] });
          continue;
        }
        const stage = entry.stage;
        if (!stage.policyIds.includes(policy.id)) stage.policyIds.push(policy.id);
        if (!entry.blocks.includes(block)) entry.blocks.push(block);
        stage.deadlineDays = Math.min(stage.deadlineDays, s.deadlineDays);
        stage.reminderDays = Math.min(Math.max(stage.reminderDays, s.reminderDays), stage.deadlineDays - 1);
      }
    }
  }
  if (byGroup.size === 0) return null;
  const stages = STAGE_APPROVERS.flatMap((g) => (byGroup.has(g) ? [byGroup.get(g)!.stage] : []));
  const laoBlocks = byGroup.get('LAO_STAFF')?.blocks ?? [];
  const laoOfSite = (code: string) => siteLaos.filter((s) => s.siteCode === code).map((s) => s.laoCode);
  return {
    stages,
    laoIds: sortedDistinct(laoBlocks.flatMap((b) => [...b.laoIds, ...b.siteCodes.flatMap(laoOfSite)])),
    studyNames: sortedDistinct((byGroup.get('STUDY_APPROVERS')?.blocks ?? []).flatMap((b) => b.studyNames)),
  };
}

/**
 * The number of stages of a stored plan (`AccessModRequest.approvalPlan`, null: none), for the start input of
 * the request's workflow: a request without stages starts with 0 and runs exactly the spec's review.
 */
export function approvalStageCount(plan: unknown): number {
  const stages = (plan as { stages?: unknown } | null)?.stages;
  return Array.isArray(stages) ? stages.length : 0;
}
