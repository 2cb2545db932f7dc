/** The provider's signing keys, kept in @portal/db (prisma/src/oidc-keys.ts) so the worker signs logout tokens too. */
export { deriveKey, loadSigningKeys, rotateSigningKey } from '@portal/db';
