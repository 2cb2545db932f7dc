import { useQuery } from '@tanstack/react-query';
import { PORTAL_SETTINGS_PATH, PortalSettingsSchema, type PortalSettings } from '@portal/contract';
import { ApiError, apiGet } from '../lib/apiClient';

/**
 * GET PORTAL_SETTINGS_PATH: the rules this portal's API is configured with (the proxy comment markers, 000 §3),
 * read at run time so the browser never holds a copy that disagrees with what the API writes. An answer of
 * another shape rejects.
 */
export async function getPortalSettings(signal?: AbortSignal): Promise<PortalSettings> {
  const parsed = PortalSettingsSchema.safeParse(await apiGet<unknown>(PORTAL_SETTINGS_PATH, undefined, signal));
  if (!parsed.success) throw new ApiError(502, { message: 'The portal gave settings it does not understand.' });
  return parsed.data;
}

/**
 * Every proxy comment marker ever configured, the current one first: null while they load (only when `needed`,
 * i.e. a proxy-filed request is on screen), [] when they cannot be read, so comments then show as stored and
 * nothing is hidden. Read once per page load: they change only with the API's configuration.
 */
export function useProxyCommentMarkers(needed: boolean): readonly string[] | null {
  const query = useQuery({
    queryKey: ['portal-settings'],
    queryFn: ({ signal }) => getPortalSettings(signal),
    staleTime: Infinity,
    enabled: needed,
  });
  if (query.data) return query.data.proxyCommentMarkers;
  return query.isError ? [] : null;
}
