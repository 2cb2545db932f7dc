/**
 * The rules each network configures for its portal, set in the API's (and the worker's) environment and
 * validated at start-up: the organisation email domains of internal users (001 §4 Approval warning, §9: 'values
 * omitted here') and the proxy comment's configured prepend segment (000 §3). The web app reads what it needs
 * of them at run time from PORTAL_SETTINGS_PATH, so one setting serves every process and the browser.
 */
import { z } from 'zod';
import { SignatureSettingsSchema } from './signatures';

/** The defaults: the demo network's domains and the marker every comment filed so far carries. */
export const PORTAL_RULES_DEFAULTS = {
  organisationEmailDomains: 'portal.test,research.test',
  proxyCommentMarker: '[Proxy request]',
} as const;

/** A comma-separated setting as its trimmed, non-empty entries ('' is the empty list; `fallback` when unset). */
export const commaSeparated = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean),
    );

/** A host name of two or more labels (`portal.test`, `lab.example.org`), compared lower-cased. */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A proxy comment marker: the text a proxy-filed request's comment starts with. One line (the parser ends the
 * marker at the first line break) without commas (they separate the earlier markers), at most 64 characters so
 * the comment's 1,024 keep room for the proxy's own words.
 */
export const ProxyCommentMarkerSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine((v) => !/[\r\n,]/.test(v), 'must be one line without commas');

/** The portal's rules from the environment (API and worker). */
export const PortalRulesConfigSchema = z.object({
  /** Internal users' email domains (comma-separated); an address at one of them or a subdomain draws no warning. */
  ORGANISATION_EMAIL_DOMAINS: commaSeparated(PORTAL_RULES_DEFAULTS.organisationEmailDomains).pipe(
    z
      .array(
        z
          .string()
          .transform((d) => d.toLowerCase())
          .refine((d) => DOMAIN.test(d), 'each entry must be a domain name such as example.org'),
      )
      .min(1, 'needs at least one domain'),
  ),
  /** The marker new proxy-filed comments are written with. */
  PROXY_COMMENT_MARKER: ProxyCommentMarkerSchema.default(PORTAL_RULES_DEFAULTS.proxyCommentMarker),
  /**
   * Markers configured before the current one (comma-separated): stored comments are never rewritten, so the
   * comments filed under them are still read as proxy comments.
   */
  PROXY_COMMENT_EARLIER_MARKERS: commaSeparated('').pipe(z.array(ProxyCommentMarkerSchema)),
});
export type PortalRulesConfig = z.infer<typeof PortalRulesConfigSchema>;

/** Every marker a stored comment may carry: the current one first, then the earlier ones, each once. */
export function proxyCommentMarkersOf(cfg: PortalRulesConfig): string[] {
  return [...new Set([cfg.PROXY_COMMENT_MARKER, ...cfg.PROXY_COMMENT_EARLIER_MARKERS])];
}

/** GET PORTAL_SETTINGS_PATH (any signed-in user): the configured rules the web app needs at run time. */
export const PORTAL_SETTINGS_PATH = '/rest/secure/portal_settings';

export const PortalSettingsSchema = z.object({
  /** The markers a proxy-filed comment may start with, the current one first (000 §3). */
  proxyCommentMarkers: z.array(ProxyCommentMarkerSchema).min(1),
  /** Electronic signatures (docs/decisions.md "Electronic signatures"): on or off, and the meanings per action. */
  signatures: SignatureSettingsSchema.default({ enabled: false, meanings: {} }),
});
export type PortalSettings = z.infer<typeof PortalSettingsSchema>;
