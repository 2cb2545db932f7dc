/** Messages of the access-change workflow: the reviewer's `review` update and the `state` query. */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { AccessChangeState, ReviewInput } from './types';

export const reviewUpdate = defineUpdate<AccessChangeState, [ReviewInput]>('review');
export const stateQuery = defineQuery<AccessChangeState>('state');
