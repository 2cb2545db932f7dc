import { MESSAGES } from '@portal/contract';
import { useMemo } from 'react';
import { siteOptions, useSites, useStudies, useStudyRoles, useSystems } from '../shared/referenceData';
import type { ProxyReference } from './ProxyRequestForm';

/** The lists the proxy page needs (study roles, systems, sites, studies), with each failure's text and retry. */
export function useProxyReference(): {
  reference: ProxyReference | null;
  failures: { text: string; retry: () => void }[];
} {
  const studyRoles = useStudyRoles();
  const systems = useSystems();
  const sites = useSites();
  const studies = useStudies();
  const options = useMemo(() => siteOptions(sites.data ?? []), [sites.data]);
  const studyNames = useMemo(() => (studies.data ?? []).map((s) => s.study), [studies.data]);
  const failures = (
    [
      [studyRoles, 'Problem loading study-roles.'],
      [systems, 'Problem loading systems.'],
      [sites, MESSAGES.referenceData.sites],
      [studies, MESSAGES.referenceData.studies],
    ] as const
  )
    .filter(([query]) => !!query.error)
    .map(([query, text]) => ({ text, retry: () => void query.refetch() }));
  const reference =
    studyRoles.data && systems.data && sites.data && studies.data
      ? {
          studyRoles: studyRoles.data.filter((r) => !r.inactive),
          systems: systems.data.filter((s) => !s.inactive),
          sites: options,
          studyNames,
        }
      : null;
  return { reference, failures };
}
