import { z } from 'zod';

/** LDAP settings, read from the environment and validated at start-up. */
export const DirectoryConfigSchema = z.object({
  LDAP_URL: z.string().regex(/^ldaps?:\/\/.+/, 'must be an ldap:// or ldaps:// URL'),
  LDAP_BASE_DN: z.string().min(3).default('dc=portal,dc=test'),
  LDAP_ADMIN_DN: z.string().min(3).default('cn=admin,dc=portal,dc=test'),
  LDAP_ADMIN_PASSWORD: z.string().min(1),
  /**
   * How long one LDAP operation may wait for its answer, in ms (default 10,000). A request given up is not
   * withdrawn: a frozen slapd may still apply it later (docs/decisions.md "Late effects of frozen dependencies").
   */
  LDAP_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  /**
   * Argon2id's cost for the passwords the portal writes (password.ts; default OWASP's 19,456 KiB, 2 passes, 1
   * lane). slapd's `argon2` module is loaded with the same values (ldap/slapd.conf.template), so a person's own
   * change costs the same. At least OWASP's weakest row: 7,168 KiB, and memory × passes ≥ 35,840.
   */
  PASSWORD_ARGON2_MEMORY_KIB: z.coerce.number().int().min(7_168).max(4_194_304).optional(),
  PASSWORD_ARGON2_TIME_COST: z.coerce.number().int().min(1).max(64).optional(),
  PASSWORD_ARGON2_PARALLELISM: z.coerce.number().int().min(1).max(16).optional(),
});
export type DirectoryConfig = z.infer<typeof DirectoryConfigSchema>;

export const peopleDn = (cfg: DirectoryConfig): string => `ou=people,${cfg.LDAP_BASE_DN}`;
export const policiesDn = (cfg: DirectoryConfig): string => `ou=policies,${cfg.LDAP_BASE_DN}`;
export const defaultPolicyDn = (cfg: DirectoryConfig): string => `cn=default,${policiesDn(cfg)}`;
export const userDn = (cfg: DirectoryConfig, username: string): string =>
  `uid=${escapeDnValue(username)},${peopleDn(cfg)}`;

/** Escapes an RDN value (RFC 4514). */
export function escapeDnValue(value: string): string {
  return value
    .replace(/[\\,+"<>;=#]/g, (c) => `\\${c}`)
    .replace(/^ /, '\\ ')
    .replace(/ $/, '\\ ');
}

/** Escapes a value for use inside a search filter (RFC 4515). */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
