/**
 * `provision-<system>-<subject>`: converges one person's account at one system, once more for every
 * `provisioningChanged` received while it runs (types.ts). A target that fails is retried with backoff until the
 * deadline, then the failure is recorded as the account's error; the next change starts a new run.
 */
import { ActivityFailure, continueAsNew, proxyActivities, setHandler } from '@temporalio/workflow';
import { type ProvisionActivities, type ProvisionInput, provisioningChangedSignal } from './types';

/** Rounds per run before continuing as new, so a person changed all day keeps a short history. */
const ROUNDS_PER_RUN = 50;

export async function provisionWorkflow(input: ProvisionInput): Promise<number> {
  let pending = true;
  setHandler(provisioningChangedSignal, () => void (pending = true));
  const { convergeAccount } = proxyActivities<ProvisionActivities>({
    startToCloseTimeout: input.attemptTimeout ?? '1 minute',
    scheduleToCloseTimeout: input.deadline ?? '7 days',
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: input.maxRetryInterval ?? '10 minutes',
    },
  });
  const { recordProvisioningFailure } = proxyActivities<ProvisionActivities>({
    startToCloseTimeout: '30 seconds',
    retry: { maximumInterval: '1 minute' },
  });
  const target = { systemAccessId: input.systemAccessId, portalUserId: input.portalUserId };
  let rounds = 0;
  while (pending) {
    if (rounds === ROUNDS_PER_RUN) await continueAsNew<typeof provisionWorkflow>(input);
    pending = false;
    rounds++;
    try {
      await convergeAccount(target);
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      await recordProvisioningFailure({ ...target, message: (err.cause ?? err).message });
    }
  }
  return rounds;
}
