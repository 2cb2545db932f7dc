/** The profile-change request workflow: the generic lifecycle with the profile-change definition. */
import type { RequestStatus } from '@portal/contract/statuses';
import { RequestLifecycle } from '../lifecycle/lifecycle';
import type { LifecycleInput, LifecycleState } from '../lifecycle/types';
import { profileChangeDefinition } from './definition';

export async function profileChangeWorkflow(input: LifecycleInput): Promise<LifecycleState<RequestStatus>> {
  return new RequestLifecycle(profileChangeDefinition, input).run();
}
