/**
 * Single sign-on into the study systems (issue 22; 000 §1, §8 Single sign-on): the portal is the network's
 * OpenID Connect provider under /oidc. The browser finishes a system's sign-in through a same-site step of the
 * portal (`/app/sso/:uid`), which posts to `SSO_LOGIN_PATH(uid)` with the portal session; the answer is either
 * where to go on (the provider's resume URL) or the refusal case to show. The refusal page is
 * `/app/sso/refused?case=<case>[&systemId=<id>]`.
 */
import { z } from 'zod';
import { PASSKEY_TEXTS } from './auth-texts';

/**
 * The sign-in levels the provider publishes (`acr_values_supported`, issue 37 "Study systems can ask for it"),
 * lowest first: the password alone, then the password and a second factor, then a phishing-resistant sign-in
 * (a passkey or security key was used: its answer is bound to the portal's origin). A higher level meets a
 * demand for a lower one. A system asks for one in `acr_values`, as an essential `acr` claim, or by its client's default
 * (Configure → Systems); docs/decisions.md "Sign-in levels".
 */
export const ACR = {
  password: 'urn:portal:acr:pwd',
  multiFactor: 'urn:portal:acr:mfa',
  phishingResistant: 'urn:portal:acr:phr',
} as const;
export const ACR_LEVELS = [ACR.password, ACR.multiFactor, ACR.phishingResistant] as const;
export type AcrLevel = (typeof ACR_LEVELS)[number];

/**
 * The four 000 §8 single sign-on failures, 'error': the portal itself failed (000 §8 'unspecified or
 * unknown'), which is not the person's identity, and 'noSecondFactor' (issue 37): the system asks for the
 * multi-factor level and the person has no second factor enrolled yet, and 'noPasskey': the system asks for the
 * phishing-resistant level and the person has no passkey or security key.
 */
export const SSO_REFUSAL_CASES = [
  'identity',
  'notAuthorized',
  'invalidLink',
  'undetermined',
  'error',
  'noSecondFactor',
  'noPasskey',
] as const;
export type SsoRefusalCase = (typeof SSO_REFUSAL_CASES)[number];

/** 000 §8 texts, with the provider's name from configuration (default 'Frontier Science'). */
export function ssoRefusalText(kase: SsoRefusalCase, providerName = 'Frontier Science'): string {
  switch (kase) {
    case 'identity':
      return `Unable to confirm your identity and/or ability to access the requested ${providerName} portal application.`;
    case 'notAuthorized':
      return `You are not authorized to access the requested ${providerName} portal application.`;
    case 'invalidLink':
      return `The clicked link does not correspond to a valid ${providerName} portal application.`;
    case 'undetermined':
      return `Unable to determine the ${providerName} portal application to which the clicked link refers.`;
    case 'error':
      return 'An error has occurred. Please contact User Support.';
    case 'noSecondFactor':
      return `The requested ${providerName} portal application asks for a second sign-in step, and you have none set up yet. You can add one under Security in your profile, then open the application again.`;
    case 'noPasskey':
      return PASSKEY_TEXTS.noPasskey(providerName);
  }
}

/** GET: the single sign-on settings the browser reads at run time (public: the refusal page needs no session). */
export const SSO_PUBLIC_CONFIG_PATH = '/rest/public/sso/config';

/** The answer of `SSO_PUBLIC_CONFIG_PATH`: the provider's name in the refusal texts (the API's SSO_PROVIDER_NAME). */
export const SsoPublicConfigSchema = z.object({ providerName: z.string().min(1) });
export type SsoPublicConfig = z.infer<typeof SsoPublicConfigSchema>;

/** POST target of the portal's sign-in step of interaction `uid` (session cookie + XSRF header). */
export const SSO_LOGIN_PATH = (uid: string): string => `/oidc/interaction/${encodeURIComponent(uid)}/login`;

/**
 * The answer of `SSO_LOGIN_PATH`: go on to the provider, or show a refusal; or (issue 37) first take the
 * second step (`STEP_UP`: the system asks for the multi-factor level and the session has the password alone),
 * or sign in again (`SIGN_IN_AGAIN`: `prompt=login`, or `max_age` older than the session's sign-in); either
 * comes back to the same step page afterwards.
 */
export const SsoLoginAnswerSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('CONTINUE'), redirectTo: z.string() }),
  /** `level`: the level to reach (a passkey is needed for the phishing-resistant one). */
  z.object({ outcome: z.literal('STEP_UP'), level: z.enum(ACR_LEVELS).optional() }),
  z.object({ outcome: z.literal('SIGN_IN_AGAIN') }),
  z.object({
    outcome: z.literal('REFUSED'),
    case: z.enum(SSO_REFUSAL_CASES),
    /** The refusal's text (000 §8, with the configured provider name). */
    message: z.string(),
    /** The system asked for, when known: the 'not authorized' page offers to request access to it. */
    system: z.object({ id: z.number().int(), systemName: z.string() }).nullable(),
    /** The person's open access-change request naming that system, if any (shown instead of a new one). */
    openRequestId: z.number().int().nullable(),
  }),
]);
export type SsoLoginAnswer = z.infer<typeof SsoLoginAnswerSchema>;

/** One system of 'My applications' (issue 22 Launch): a held system with single sign-on. */
export const MyApplicationSchema = z.object({
  systemId: z.number().int(),
  systemName: z.string(),
  /** The system's initiate-login URI (third-party initiated login); the card opens it in a new tab. */
  launchUrl: z.string(),
});
export type MyApplication = z.infer<typeof MyApplicationSchema>;
