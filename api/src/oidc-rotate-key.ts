/**
 * `npm run oidc:rotate-key` (issue 22): makes a new signing key for the single sign-on provider. The new key
 * signs once the API processes restart (each loads the keys at start); the old one stays published in the
 * JWKS for the longest lifetime of what it signed (ID tokens, an hour; access tokens, OIDC_ACCESS_TOKEN_TTL),
 * so systems keep verifying tokens issued before the rotation. Needs the API's DATABASE_URL and
 * OIDC_KEY_ENCRYPTION_KEY; audited as OIDC_KEY_ROTATED.
 */
import { createPrisma } from '@portal/db';
import { loadApiConfig } from './config';
import { rotateSigningKey } from './features/oidc/keys';
import { recordAudit } from './shared/audit-log';

const ID_TOKEN_SECONDS = 3600;

async function main(): Promise<void> {
  const cfg = loadApiConfig();
  if (!cfg.OIDC_KEY_ENCRYPTION_KEY) throw new Error('OIDC_KEY_ENCRYPTION_KEY is not set: single sign-on is off');
  const prisma = createPrisma(cfg.DATABASE_URL);
  try {
    const keep = Math.max(ID_TOKEN_SECONDS, cfg.OIDC_ACCESS_TOKEN_TTL_SECONDS);
    const kid = await rotateSigningKey(prisma, cfg.OIDC_KEY_ENCRYPTION_KEY, keep);
    await recordAudit(
      prisma,
      { userId: null, username: 'system' },
      { entityType: 'OidcSigningKey', entityId: kid, action: 'OIDC_KEY_ROTATED' },
    );
    console.log(`signing key ${kid} made; the previous key stays published for ${keep} s. Restart the API processes.`);
  } finally {
    await prisma.$disconnect();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
