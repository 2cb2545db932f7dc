import type { QueryClient } from '@tanstack/react-query';
import { referenceKeys } from '../../shared/referenceData';
import type { ConfigResource, ConfigRecord } from './resources';

/** Query keys of the configuration screens: ['configure', resource, id?] and the in-use look-ups. */
export const configKeys = {
  all: ['configure'] as const,
  list: (resource: ConfigResource<ConfigRecord, unknown>) => ['configure', resource.key] as const,
  record: (resource: ConfigResource<ConfigRecord, unknown>, id: number) => ['configure', resource.key, id] as const,
  inUse: (resource: ConfigResource<ConfigRecord, unknown>, id: number) =>
    ['configure', 'inUse', resource.key, id] as const,
  /** A system's single sign-on client (issue 22). */
  ssoClient: (systemId: number) => ['configure', 'ssoClient', systemId] as const,
  /** A system's provisioning connection and its reconciliations (issue 41), all under one prefix. */
  provisioning: (systemId: number) => ['configure', 'provisioning', systemId] as const,
  reconciliations: (systemId: number, view?: { page: number; size: number }) =>
    view
      ? (['configure', 'provisioning', systemId, 'runs', view] as const)
      : (['configure', 'provisioning', systemId, 'runs'] as const),
  reconciliation: (systemId: number, runId: number) => ['configure', 'provisioning', systemId, 'run', runId] as const,
};

/**
 * After a change: the configuration lists, the public study-role / system lists (request forms) and the audit
 * trail (which now has a row more) are stale.
 */
export function invalidateConfiguration(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: configKeys.all }),
    queryClient.invalidateQueries({ queryKey: referenceKeys.studyRoles }),
    queryClient.invalidateQueries({ queryKey: referenceKeys.systems }),
    queryClient.invalidateQueries({ queryKey: ['audit'] }),
  ]).then(() => undefined);
}
