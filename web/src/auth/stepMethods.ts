/**
 * Which answers the second step offers (docs/decisions.md "Second factors", "Passkeys"): the sign-in's answer
 * names them (`methods`, a passkey first); a step-up of a full session asks the person's factors instead. A
 * study system's phishing-resistant demand (`level=phr`) leaves only the passkey.
 */
import type { SecondFactorOverview, TokenCreateResponse } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../lib/apiClient';

export type StepMethod = NonNullable<TokenCreateResponse['secondFactor']>['methods'][number];

const KNOWN: readonly StepMethod[] = ['WEBAUTHN', 'TOTP', 'RECOVERY_CODE'];

/** The `methods` query parameter (comma-separated), known names only, in the API's order; null when absent. */
export function methodsParam(search: URLSearchParams): StepMethod[] | null {
  const raw = search.get('methods');
  if (raw === null) return null;
  const named = new Set(raw.split(','));
  return KNOWN.filter((m) => named.has(m));
}

/** The methods of the person's factors, as the API's sign-in answer would name them. */
export function methodsOf(overview: SecondFactorOverview): StepMethod[] {
  const active = overview.factors.filter((f) => f.state === 'ACTIVE');
  const methods: StepMethod[] = [];
  if (active.some((f) => f.kind === 'WEBAUTHN')) methods.push('WEBAUTHN');
  if (active.some((f) => f.kind === 'TOTP')) methods.push('TOTP');
  if (methods.length && overview.recoveryCodesLeft > 0) methods.push('RECOVERY_CODE');
  return methods;
}

/**
 * The methods to offer on this page: the URL's, else the person's factors (a step-up's session may read them;
 * a session limited to the step may not: then the code and the recovery code, as before passkeys).
 * @returns undefined while the factors load.
 */
export function useStepMethods(search: URLSearchParams): StepMethod[] | undefined {
  const fromUrl = methodsParam(search);
  const factors = useQuery({
    queryKey: ['second-factor'],
    queryFn: async () =>
      (await request<SecondFactorOverview>('GET', '/rest/secure/second_factor', { ignoreUnauthorized: true }))
        .data as SecondFactorOverview,
    enabled: fromUrl === null,
    retry: false,
  });
  if (fromUrl) return fromUrl;
  if (factors.isPending) return undefined;
  return factors.data ? methodsOf(factors.data) : ['TOTP', 'RECOVERY_CODE'];
}
