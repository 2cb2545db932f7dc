/** The registration workflow: the generic lifecycle with the registration definition. */
import type { RegistrationStatus } from '@portal/contract';
import { RequestLifecycle } from '../lifecycle/lifecycle';
import type { LifecycleInput, LifecycleState } from '../lifecycle/types';
import { registrationDefinition } from './definition';

export async function registrationWorkflow(input: LifecycleInput): Promise<LifecycleState<RegistrationStatus>> {
  return new RequestLifecycle(registrationDefinition, input).run();
}
