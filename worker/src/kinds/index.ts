/** The request kinds the worker serves, by kind: the lifecycle's activities dispatch on `input.kind`. */
import { ApplicationFailure } from '@temporalio/activity';
import { NON_RETRYABLE_ERRORS } from '@portal/workflows';
import type { WorkflowKind } from '@portal/contract';
import { accessChangeStore } from './access-change/store';
import { registrationStore } from './registration/store';
import { profileChangeStore } from './profile-change/store';
import type { KindStore } from './types';

export const KIND_STORES: Partial<Record<WorkflowKind, KindStore>> = {
  ACCESS_CHANGE: accessChangeStore,
  REGISTRATION: registrationStore,
  PROFILE_CHANGE: profileChangeStore,
};

/** The store of `kind`. @throws a non-retryable ApplicationFailure for a kind this worker does not serve. */
export function storeOf(kind: WorkflowKind): KindStore {
  const store = KIND_STORES[kind];
  if (!store)
    throw ApplicationFailure.nonRetryable(`no store for request kind ${kind}`, NON_RETRYABLE_ERRORS.requestNotFound);
  return store;
}

export type { KindStore } from './types';
