/**
 * @portal/db: the Prisma client for the portal's PostgreSQL records, built on the pg driver adapter
 * (no query-engine binary; ENVIRONMENT.md "Prisma offline").
 */
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/client/client';
import { withTransactionClients } from './file-store';
import { withReleasedTransactions } from './released-transactions';
import { poolConfigFromUrl } from './url';

export * from '../generated/client/client';
export { poolConfigFromUrl } from './url';
export * from './locks';
export * from './sql-runner';
export * from './password-links';
export * from './access-rules';
export * from './access-records';
export * from './access-review-removal';
export * from './record-laos';
export * from './access-change-filing';
export * from './approval-plan';
export * from './approval-authority';
export * from './sso-revocation';
export * from './provisioning';
export * from './oidc-keys';
export { SECOND_FACTOR_SEAL_PURPOSE, openText, sealText } from './sealed';
export * from './client-secret';
export * from './file-store';

/** Creates a Prisma client for `databaseUrl` (postgres://user:pass@host:port/db). */
export function createPrisma(databaseUrl: string): PrismaClient {
  const adapter = withTransactionClients(withReleasedTransactions(new PrismaPg(poolConfigFromUrl(databaseUrl))));
  return new PrismaClient({ adapter });
}
export * from './audit-trail/canonical';
export * from './audit-trail/keys';
export * from './audit-trail/seal';
export * from './audit-trail/verify';
export * from './audit-trail/record';
export * from './audit-trail/write';
export * from './signatures/write';
export * from './signatures/verify';
export * from './signatures/content-requests';
export * from './signatures/content-admin';
