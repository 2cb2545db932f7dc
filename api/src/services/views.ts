/**
 * Moved to `shared/views.ts` (issue 8). Kept only until the request features import `workflowUrl` from
 * there; delete this file then.
 */
export { workflowUrl } from '../shared/views';
