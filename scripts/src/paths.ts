/** Well-known paths of the repository, resolved from this file's location (scripts/src). */
import path from 'node:path';

/** Absolute path of the repository root. */
export const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/** Absolute path of a file or folder inside the repository. */
export const repoPath = (...parts: string[]): string => path.join(repoRoot, ...parts);

/** Absolute path of an executable installed under node_modules/.bin. */
export const binPath = (name: string): string => repoPath('node_modules', '.bin', name);

/** The file in a stack's data folder `npm run up` writes for `npm run audit:verify` (no secret in it). */
export const AUDIT_VERIFY_FILE = 'audit-verify.json';
