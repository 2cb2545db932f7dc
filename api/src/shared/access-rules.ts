/**
 * Server-side rules of an access request's role blocks (000 §5 Role block, 001 §5 "Server-side"). They live in
 * `@portal/db` (prisma/src/access-rules.ts) so the worker's review commit re-checks with the same code; this
 * module keeps the API's import path.
 */
export { type ReferenceSets, checkAccessControls, loadReferenceSets } from '@portal/db';
