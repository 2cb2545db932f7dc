/** The access-change request workflow: the generic lifecycle with the access-change definition. */
import type { RequestStatus } from '@portal/contract/statuses';
import { RequestLifecycle } from '../lifecycle/lifecycle';
import type { LifecycleInput, LifecycleState } from '../lifecycle/types';
import { accessChangeDefinition } from './definition';

export async function accessChangeWorkflow(input: LifecycleInput): Promise<LifecycleState<RequestStatus>> {
  return new RequestLifecycle(accessChangeDefinition, input).run();
}
