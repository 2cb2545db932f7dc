/**
 * Sign-in levels (issue 37 "Study systems can ask for it"; docs/decisions.md "Sign-in levels"): what a study
 * system's authorization request demands (`acr_values`, with the client's `default_acr_values` already
 * applied by the provider, and an essential `acr` claim in the `claims` parameter), what a portal session
 * reached (its RFC 8176 `amr`), and what the provider is told (`login: { acr, amr, ts }`). The levels are
 * ordered (contract ACR_LEVELS): a higher one meets a demand for a lower one.
 */
import { z } from 'zod';
import { ACR, ACR_LEVELS, type AcrLevel } from '@portal/contract';

const rank = (level: AcrLevel): number => ACR_LEVELS.indexOf(level);
const isLevel = (value: string): value is AcrLevel => (ACR_LEVELS as readonly string[]).includes(value);

/** The essential `acr` request of the `claims` parameter (OIDC Core §5.5.1.1), as far as the portal reads it. */
const ClaimsParamSchema = z.object({
  id_token: z
    .object({
      acr: z
        .object({
          essential: z.boolean().optional(),
          value: z.string().optional(),
          values: z.array(z.string()).optional(),
        })
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
});

/** `text` as JSON, or null when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** What a request asks of the sign-in. */
export interface LevelDemand {
  /** The lowest level that meets the request (null: none asked; the password is enough). */
  level: AcrLevel | null;
  /** The levels an essential `acr` claim accepts (null: no essential claim): the reported acr must be one. */
  essential: AcrLevel[] | null;
  /** An essential `acr` claim names no published level: no sign-in can meet it. */
  unmet: boolean;
}

/**
 * The demand of an authorization request's stored parameters (`acr_values`: a space-separated list, any of
 * which the system accepts; `claims`: JSON, already checked by the provider). Unpublished values in
 * `acr_values` are ignored (the parameter is voluntary); an unreadable `claims` counts as no claim.
 */
export function demandOf(params: Record<string, unknown>): LevelDemand {
  const named = new Set<AcrLevel>();
  const voluntary = typeof params.acr_values === 'string' ? params.acr_values.split(' ').filter(isLevel) : [];
  voluntary.forEach((v) => named.add(v));
  let essential: AcrLevel[] | null = null;
  let unmet = false;
  if (typeof params.claims === 'string') {
    const json = parseJson(params.claims);
    const acr = ClaimsParamSchema.safeParse(json).data?.id_token?.acr;
    const asked = acr?.essential ? (acr.values ?? (acr.value !== undefined ? [acr.value] : null)) : null;
    if (asked) {
      essential = asked.filter(isLevel);
      unmet = essential.length === 0;
      // An essential claim narrows the request: only its levels count.
      named.clear();
      essential.forEach((v) => named.add(v));
    }
  }
  const lowest = [...named].sort((a, b) => rank(a) - rank(b))[0] ?? null;
  return { level: lowest, essential, unmet };
}

/** The claims the `claims` parameter names (id_token and userinfo), granted as the scopes are. */
export function claimsNamed(params: Record<string, unknown>): string[] {
  if (typeof params.claims !== 'string') return [];
  const parsed = z
    .object({
      id_token: z.record(z.string(), z.unknown()).nullish(),
      userinfo: z.record(z.string(), z.unknown()).nullish(),
    })
    .safeParse(parseJson(params.claims));
  if (!parsed.success) return [];
  return [...new Set([...Object.keys(parsed.data.id_token ?? {}), ...Object.keys(parsed.data.userinfo ?? {})])];
}

/** RFC 8176 methods of a passkey or security key (docs/decisions.md "Passkeys"): device-bound, or synced. */
const PASSKEY_AMR = ['hwk', 'swk'];

/**
 * The level a session's RFC 8176 `amr` reached: phishing-resistant once a passkey answered (`hwk`/`swk`: its
 * signature is bound to the portal's origin), multi-factor once a one-time code was taken, else the password.
 */
export const levelOfAmr = (amr: readonly string[]): AcrLevel =>
  amr.some((m) => PASSKEY_AMR.includes(m))
    ? ACR.phishingResistant
    : amr.includes('otp')
      ? ACR.multiFactor
      : ACR.password;

/** Whether a session at `reached` meets `demand`'s level. */
export const meets = (reached: AcrLevel, demand: LevelDemand): boolean =>
  demand.level === null || rank(reached) >= rank(demand.level);

/**
 * The `acr` to report for a session at `reached`: the level itself, unless an essential claim accepts only
 * lower ones (a multi-factor sign-in is a password sign-in too), then the highest of those it meets.
 * @returns null when an essential claim accepts none the session meets.
 */
export function reportedAcr(reached: AcrLevel, demand: LevelDemand): AcrLevel | null {
  if (!demand.essential || demand.essential.includes(reached)) return reached;
  const met = demand.essential.filter((l) => rank(l) <= rank(reached)).sort((a, b) => rank(b) - rank(a));
  return met[0] ?? null;
}

/**
 * RFC 8176 `amr` as the ID token says it: the session's methods, and `mfa` when there is more than one factor
 * (a one-time code or a passkey beside the password; a passkey alone too, its user verification being
 * required: the key held and a PIN or biometric).
 */
export const reportedAmr = (amr: readonly string[]): string[] =>
  amr.some((m) => m === 'otp' || PASSKEY_AMR.includes(m)) ? [...new Set([...amr, 'mfa'])] : [...amr];
