/**
 * The baseline of the proxy batch benchmark (proxy-batch.ts), bundled as workflow code: one bare workflow
 * that runs `count` no-op activities strictly one after another, each of which starts one no-op workflow:
 * the Temporal floor of what a batch of `count` users does (one activity per user, one workflow start per
 * filed request), without the database work.
 */
import { proxyActivities } from '@temporalio/workflow';

export interface BaselineActivities {
  /** Starts `noopWorkflow` number `i` and returns. */
  startNoop(i: number): Promise<void>;
}

const { startNoop } = proxyActivities<BaselineActivities>({ startToCloseTimeout: '30 seconds' });

export async function baselineBatchWorkflow(count: number): Promise<number> {
  for (let i = 1; i <= count; i++) await startNoop(i);
  return count;
}

export async function noopWorkflow(): Promise<void> {}
