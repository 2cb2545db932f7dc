/**
 * Messages every lifecycle workflow handles, defined once and imported by the workflow, the API and the
 * tests: the reviewer's `review` update and the `state` query.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { LifecycleState, ReviewInput } from './types';

export const reviewUpdate = defineUpdate<LifecycleState, [ReviewInput]>('review');
export const stateQuery = defineQuery<LifecycleState>('state');
