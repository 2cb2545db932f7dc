import { SSO_PUBLIC_CONFIG_PATH, SsoPublicConfigSchema, type SsoPublicConfig } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { ApiError, apiGet } from '../../lib/apiClient';

/**
 * GET `SSO_PUBLIC_CONFIG_PATH`: the single sign-on settings of this portal (the provider's name), configured
 * once for the API and read at run time. An answer of another shape rejects.
 */
export async function getSsoConfig(signal?: AbortSignal): Promise<SsoPublicConfig> {
  const parsed = SsoPublicConfigSchema.safeParse(await apiGet<unknown>(SSO_PUBLIC_CONFIG_PATH, undefined, signal));
  if (!parsed.success) {
    throw new ApiError(502, { message: 'The portal gave single sign-on settings it does not understand.' });
  }
  return parsed.data;
}

/**
 * The single sign-on settings, read once per page load (they change only with the API's configuration);
 * `enabled` false: not read (a page that needs them only in one case).
 */
export function useSsoConfig(enabled = true) {
  return useQuery({
    queryKey: ['sso', 'config'],
    queryFn: ({ signal }) => getSsoConfig(signal),
    staleTime: Infinity,
    enabled,
  });
}
