import type { SsoClient } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/apiClient';
import { configKeys } from './configKeys';

/** Where a system's single sign-on client lives (issue 22): GET / PUT / DELETE, and `/secret` to rotate. */
export const ssoClientUrl = (systemId: number) => `/rest/secure/system_mgmt/system_access/${systemId}/sso_client`;

/** GET a system's single sign-on client: null when it has none. */
export const getSsoClient = (systemId: number, signal?: AbortSignal) =>
  apiGet<SsoClient | null>(ssoClientUrl(systemId), undefined, signal);

export const ssoClientQueryOptions = (systemId: number) =>
  queryOptions({
    queryKey: configKeys.ssoClient(systemId),
    queryFn: ({ signal }) => getSsoClient(systemId, signal).then((client) => client ?? null),
  });

/** The system's single sign-on client (null: not set up). */
export const useSsoClient = (systemId: number) => useQuery(ssoClientQueryOptions(systemId));
