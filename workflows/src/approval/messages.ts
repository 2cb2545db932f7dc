/**
 * The `decideStage` update of an access-change request with approval stages (docs/decisions.md "Approval
 * policies"), defined once for the workflow, the API and the tests. It answers the lifecycle's state.
 */
import { defineUpdate } from '@temporalio/workflow';
import type { LifecycleState } from '../lifecycle/types';
import type { StageDecisionInput } from './types';

export const decideStageUpdate = defineUpdate<LifecycleState, [StageDecisionInput]>('decideStage');
