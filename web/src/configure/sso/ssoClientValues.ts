import {
  ACR,
  SSO_CLIENT_LIMITS,
  SsoClientBodySchema,
  translateFieldErrors,
  zodToFieldErrors,
  type FieldErrors,
  type SsoClient,
  type SsoClientBody,
} from '@portal/contract';
import { ApiError } from '../../lib/apiClient';
import type { PageMessage } from '../../shared/ErrorAlert';

/**
 * The single sign-on section's form (issue 22; Configure → Systems): its values, the body it sends, and the
 * spec's '{field label} {reason}' texts (001 §5) for the contract's and the server's field errors, including
 * the per-entry keys of the URI lists (`redirectUris[1]` shows under 'Redirect URI 2').
 */

export type ClientType = 'confidential' | 'public';

/**
 * The sign-in level a system asks for by default (issue 37; docs/decisions.md "Passkeys"), as the form's radio
 * value: none, multi-factor, or phishing-resistant (a passkey or security key).
 */
export type DefaultLevel = 'none' | 'multiFactor' | 'phishingResistant';

const LEVEL_OF: Record<Exclude<DefaultLevel, 'none'>, (typeof ACR)[keyof typeof ACR]> = {
  multiFactor: ACR.multiFactor,
  phishingResistant: ACR.phishingResistant,
};

/** The radio value of a client's default acr (the password level, or none, is 'none'). */
function levelOf(acr: string | null | undefined): DefaultLevel {
  if (acr === ACR.phishingResistant) return 'phishingResistant';
  return acr === ACR.multiFactor ? 'multiFactor' : 'none';
}

export interface SsoClientValues {
  clientId: string;
  clientType: ClientType;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string;
  initiateLoginUri: string;
  defaultLevel: DefaultLevel;
}

/** The URI lists of a client: their field, the list's label and one entry's label. */
export const URI_LISTS = {
  redirectUris: { label: 'Redirect URIs', item: 'Redirect URI', min: 1, max: SSO_CLIENT_LIMITS.redirectUris },
  postLogoutRedirectUris: {
    label: 'Post-logout redirect URIs (optional)',
    item: 'Post-logout redirect URI',
    min: 0,
    max: SSO_CLIENT_LIMITS.postLogoutRedirectUris,
  },
} as const;
export type UriListName = keyof typeof URI_LISTS;

/** The labels the error texts use, by body field (the form calls `isPublic` `clientType`). */
const LABELS: Record<string, { label: string; plural?: boolean; field?: string }> = {
  clientId: { label: 'Client ID' },
  isPublic: { label: 'Client type', field: 'clientType' },
  redirectUris: { label: 'Redirect URIs', plural: true },
  postLogoutRedirectUris: { label: 'Post-logout redirect URIs', plural: true },
  backchannelLogoutUri: { label: 'Back-channel logout URI' },
  initiateLoginUri: { label: 'Initiate-login URI' },
  defaultAcr: { label: 'Sign-in level', field: 'defaultLevel' },
};

/** The form's values for `client`, or the blank set-up form (a confidential client with one redirect URI). */
export function ssoClientValues(client: SsoClient | null): SsoClientValues {
  return {
    clientId: client?.clientId ?? '',
    clientType: client?.isPublic ? 'public' : 'confidential',
    redirectUris: client ? [...client.redirectUris] : [''],
    postLogoutRedirectUris: client ? [...client.postLogoutRedirectUris] : [],
    backchannelLogoutUri: client?.backchannelLogoutUri ?? '',
    initiateLoginUri: client?.initiateLoginUri ?? '',
    defaultLevel: levelOf(client?.defaultAcr),
  };
}

/** The PUT body of the values (texts trimmed; blank optional URIs are none). */
export function ssoClientBody(v: SsoClientValues): SsoClientBody {
  return {
    clientId: v.clientId.trim(),
    isPublic: v.clientType === 'public',
    redirectUris: v.redirectUris.map((u) => u.trim()),
    postLogoutRedirectUris: v.postLogoutRedirectUris.map((u) => u.trim()),
    backchannelLogoutUri: v.backchannelLogoutUri.trim() || null,
    initiateLoginUri: v.initiateLoginUri.trim() || null,
    defaultAcr: v.defaultLevel === 'none' ? null : LEVEL_OF[v.defaultLevel],
  };
}

/**
 * Field errors (contract or server keys) as the form shows them, keyed by form path (`redirectUris.1`); keys
 * the form has no field for come back in `other`, translated with their raw key.
 */
export function ssoFormErrors(fieldErrors: FieldErrors): { errors: Record<string, string>; other: string[] } {
  const errors: Record<string, string> = {};
  const other: string[] = [];
  for (const [key, reasons] of Object.entries(fieldErrors)) {
    const entry = /^(redirectUris|postLogoutRedirectUris)\[(\d+)\]$/.exec(key);
    if (entry) {
      const index = Number(entry[2]);
      const label = `${URI_LISTS[entry[1] as UriListName].item} ${index + 1}`;
      errors[`${entry[1]}.${index}`] = translateFieldErrors(label, reasons);
      continue;
    }
    const field = LABELS[key];
    if (field) errors[field.field ?? key] = translateFieldErrors(field.label, reasons, field.plural);
    else other.push(translateFieldErrors(key, reasons));
  }
  return { errors, other };
}

/** The browser's check before sending: the contract's own schema, so both sides read the same. */
export function validateSsoClient(values: SsoClientValues): Record<string, string> {
  const parsed = SsoClientBodySchema.safeParse(ssoClientBody(values));
  return parsed.success ? {} : ssoFormErrors(zodToFieldErrors(parsed.error)).errors;
}

/** A failed call as the form shows it: field errors by their fields, the rest in the page message. */
export function describeSsoFailure(
  error: unknown,
  text: string,
): { errors: Record<string, string>; message: PageMessage } {
  if (!(error instanceof ApiError)) {
    return { errors: {}, message: { kind: 'error', text, details: error instanceof Error ? [error.message] : [] } };
  }
  const { errors, other } = ssoFormErrors(error.fieldErrors);
  const details = [...other, ...error.globalErrors];
  if (error.status !== 422 && error.message) details.push(error.message);
  return { errors, message: { kind: 'error', text, details } };
}
