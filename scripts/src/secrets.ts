/**
 * Local secrets of a stack's data folder: generated once, kept in `<dataDir>/secrets.json` (mode 600) and
 * reused on the next start. Nothing here is ever committed (the data folder is git-ignored).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const SecretsSchema = z.object({
  ldapAdminPassword: z.string().min(16),
  sessionSecret: z.string().min(32),
  /** The worker's MAIL_LINK_KEY: one per data folder, so every worker of the stack derives the same links. */
  mailLinkKey: z.string().min(32),
  /** The API's OIDC_KEY_ENCRYPTION_KEY (issue 22): encrypts the provider's signing keys; one for all API processes. */
  oidcKeyEncryptionKey: z.string().min(32),
  /** The API's ELEARNING_URL_KEY: signs the e-learning packages' paths; one for all API processes. */
  elearningUrlKey: z.string().min(32),
  /** The API's CAPTCHA_HMAC_KEY (issue 24): signs the captcha's challenges; one for all API processes. */
  captchaHmacKey: z.string().min(32),
  /** The API's SECOND_FACTOR_KEY (issue 37): seals the second factors' secrets; one for all API processes. */
  secondFactorKey: z.string().min(32),
  /** The worker's AUDIT_SEAL_PRIVATE_KEY (issue 39): the Ed25519 key the audit seals are signed with (32 bytes). */
  auditSealPrivateKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  /** The demo study system's client secret (issue 22): the seed stores its digest, the demo system presents it. */
  demoSystemClientSecret: z.string().min(32),
  /**
   * The API's and the worker's PROVISIONING_KEY (issue 41): seals the SCIM targets' bearer tokens; one for every
   * process of the stack, since the API seals what the worker opens.
   */
  provisioningKey: z.string().min(32),
  /** The bearer token of the demo 'Laboratory Information System (demo)' (issue 41): the seed seals it. */
  demoScimToken: z.string().min(32),
});
export type LocalSecrets = z.infer<typeof SecretsSchema>;

const generate = (bytes: number): string => crypto.randomBytes(bytes).toString('base64url');

/**
 * Reads `<dataDir>/secrets.json`, creating it (or adding missing values) on first use.
 * @throws Error when the file exists but is not valid JSON.
 */
export function loadOrCreateSecrets(dataDir: string): LocalSecrets {
  const file = path.join(dataDir, 'secrets.json');
  fs.mkdirSync(dataDir, { recursive: true });
  let stored: Partial<LocalSecrets> = {};
  if (fs.existsSync(file)) {
    try {
      stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LocalSecrets>;
    } catch (err) {
      throw new Error(`${file} is not valid JSON (${(err as Error).message}); delete it to generate new secrets`, {
        cause: err,
      });
    }
  }
  const candidate = {
    ldapAdminPassword: stored.ldapAdminPassword ?? generate(18),
    sessionSecret: stored.sessionSecret ?? generate(48),
    mailLinkKey: stored.mailLinkKey ?? generate(48),
    oidcKeyEncryptionKey: stored.oidcKeyEncryptionKey ?? generate(48),
    captchaHmacKey: stored.captchaHmacKey ?? generate(32),
    elearningUrlKey: stored.elearningUrlKey ?? generate(48),
    demoSystemClientSecret: stored.demoSystemClientSecret ?? generate(32),
    secondFactorKey: stored.secondFactorKey ?? generate(48),
    auditSealPrivateKey: stored.auditSealPrivateKey ?? generate(32),
    provisioningKey: stored.provisioningKey ?? generate(48),
    demoScimToken: stored.demoScimToken ?? generate(32),
  };
  const secrets = SecretsSchema.parse(candidate);
  if ((Object.keys(secrets) as Array<keyof LocalSecrets>).some((name) => secrets[name] !== stored[name])) {
    fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  }
  fs.chmodSync(file, 0o600);
  return secrets;
}
