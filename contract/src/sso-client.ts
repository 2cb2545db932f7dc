import { z } from 'zod';
import { ACR_LEVELS } from './sso';
import { storableText } from './text';

/**
 * The single sign-on client of a system (issue 22; Configure → Systems, 001 §2.12): the study system as an
 * OpenID Connect relying party of the portal. Its client id, redirect URIs, post-logout redirect URIs, an
 * optional back-channel logout URI and initiate-login URI, and whether it is public (no secret, PKCE) or
 * confidential (a secret shown once, stored hashed), and (issue 37) the sign-in level it asks for by default.
 * Field errors are the spec's generic keys (001 §5 '{field label} {reason}'): `required`, `size`, `invalid`,
 * `protocolRequired`, `unique`.
 */

/** Limits of the client's fields (the database columns: client id 128, each URI 2048). */
export const SSO_CLIENT_LIMITS = { clientId: 128, uri: 2048, redirectUris: 10, postLogoutRedirectUris: 10 } as const;

/** Texts of the single sign-on section (the spec has none: written in the style of 001 §8). */
export const SSO_CLIENT_MESSAGES = {
  notSetUp: 'Single sign-on is not set up for this system.',
  load: 'Problem loading the single sign-on client.',
  saveFailed: 'Unable to save the single sign-on client due to one or more errors.',
  deleteFailed: 'Unable to remove single sign-on.',
  rotateFailed: 'Unable to rotate the client secret.',
  saved: (clientId: string) => `Single sign-on client ${clientId} saved`,
  deleted: 'Single sign-on removed',
  rotated: 'New client secret issued',
  fixedSystem: 'The fixed system is the portal itself: it has no single sign-on client.',
  publicHasNoSecret: 'A public client has no secret: it proves itself with PKCE.',
  secretOnce: 'Copy the client secret now: it will not be shown again.',
} as const;

/** Where an http URI is acceptable outside production (RFC 8252 §7.3 loopback, and `localhost`). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** How strict the URI rules are: the API allows loopback http only outside production (SSO_ALLOW_LOOPBACK_HTTP). */
export interface SsoUriRules {
  allowLoopbackHttp: boolean;
}

/**
 * What is wrong with a client URI, as a 001 §5 reason key, or null when it is acceptable: `size` over 2048
 * characters; `invalid` when it is not an absolute URL, has a fragment, user information (`user:pass@`), a
 * wildcard or white space; `protocolRequired` unless it is https, or http to 127.0.0.1 / localhost / [::1]
 * when loopback http is allowed.
 */
export function ssoUriProblem(value: string, rules: SsoUriRules): 'size' | 'invalid' | 'protocolRequired' | null {
  if (value.length > SSO_CLIENT_LIMITS.uri) return 'size';
  if (/[\s#*]/.test(value)) return 'invalid';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'invalid';
  }
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?]*)/i.exec(value)?.[1] ?? '';
  if (url.username || url.password || authority.includes('@')) return 'invalid';
  if (url.protocol === 'https:') return url.hostname ? null : 'invalid';
  if (url.protocol === 'http:' && rules.allowLoopbackHttp && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'protocolRequired';
}

const uri = (rules: SsoUriRules) =>
  storableText.trim().superRefine((value, ctx) => {
    if (!value) return void ctx.addIssue({ code: 'custom', message: 'required', input: value });
    const problem = ssoUriProblem(value, rules);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
  });

/** An optional URI: absent, null or blank is none (null). */
const optionalUri = (rules: SsoUriRules) =>
  z.preprocess((v) => (v === undefined || (typeof v === 'string' && !v.trim()) ? null : v), uri(rules).nullable());

/**
 * A list of URIs, each checked, duplicates dropped (the provider matches redirect URIs exactly): over `max` is
 * `size`, under `min` `required`. (Not `.max()`: zod also applies it to a string sent instead of a list.)
 */
const uriList = (rules: SsoUriRules, max: number, min: number) =>
  z
    .array(uri(rules))
    .superRefine((list, ctx) => {
      if (list.length > max) ctx.addIssue({ code: 'custom', message: 'size', input: list });
      if (list.length < min) ctx.addIssue({ code: 'custom', message: 'required', input: list });
    })
    .transform((list) => [...new Set(list)]);

/** The client id (OAuth `client_id`): 1..128 characters of letters, digits, '.', '_' and '-'. */
export const SsoClientIdSchema = storableText
  .trim()
  .min(1)
  .max(SSO_CLIENT_LIMITS.clientId)
  .regex(/^[A-Za-z0-9._-]*$/);

/**
 * The body of PUT .../system_access/{id}/sso_client under `rules` (the API builds it from its configuration;
 * `SsoClientBodySchema` is the lenient one the browser checks with).
 */
export function ssoClientBodySchema(rules: SsoUriRules) {
  return z.object({
    clientId: SsoClientIdSchema,
    /** Public: no secret, PKCE S256 required; confidential: client_secret_basic with a secret shown once. */
    isPublic: z.boolean().default(false),
    redirectUris: uriList(rules, SSO_CLIENT_LIMITS.redirectUris, 1),
    postLogoutRedirectUris: uriList(rules, SSO_CLIENT_LIMITS.postLogoutRedirectUris, 0).default([]),
    /** OpenID Connect Back-Channel Logout 1.0: where logout tokens are posted. */
    backchannelLogoutUri: optionalUri(rules).default(null),
    /** Third-party initiated login: where 'My applications' sends a person to start signing in. */
    initiateLoginUri: optionalUri(rules).default(null),
    /**
     * Issue 37: the sign-in level the system asks for when its request names none (`default_acr_values`);
     * null: none (the password is enough). The multi-factor level steps a password-only session up.
     */
    defaultAcr: z.enum(ACR_LEVELS).nullable().default(null),
  });
}

/** The body with loopback http allowed (the browser's check; the API applies its configured rules). */
export const SsoClientBodySchema = ssoClientBodySchema({ allowLoopbackHttp: true });
export type SsoClientBody = z.infer<typeof SsoClientBodySchema>;

/** A system's single sign-on client as the configuration shows it: never the secret nor its hash. */
export const SsoClientSchema = z.object({
  systemAccessId: z.number().int(),
  clientId: z.string(),
  isPublic: z.boolean(),
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  backchannelLogoutUri: z.string().nullable(),
  initiateLoginUri: z.string().nullable(),
  /** The sign-in level asked for by default (issue 37), or null. */
  defaultAcr: z.enum(ACR_LEVELS).nullable(),
  /** Whether a secret is on record (a confidential client); the secret itself is never answered again. */
  hasSecret: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SsoClient = z.infer<typeof SsoClientSchema>;

/**
 * The answer of a save or a rotation: the client and, only when one was just issued (a new confidential
 * client, a switch to confidential, a rotation), the plaintext secret: shown once, never retrievable again.
 */
export const SsoClientSavedSchema = SsoClientSchema.extend({ clientSecret: z.string().nullable() });
export type SsoClientSaved = z.infer<typeof SsoClientSavedSchema>;

/** Audit actions of a client (entity type `SsoClient`, keyed by the system's id). */
export const SSO_CLIENT_AUDIT_ACTIONS = ['CREATED', 'UPDATED', 'DELETED', 'SECRET_ROTATED'] as const;
