import { MESSAGES } from '@portal/contract';
import { useMemo } from 'react';
import { siteOptions, useSites, useStudies, useStudyRoles, useSystems } from '../shared/referenceData';
import type { RegistrationReference } from './RegistrationForm';

/**
 * The lists the registration form needs (001 §7 public study roles and systems; 000 §7 sites and studies),
 * all from public calls so the visitor's form loads them too. `failures` carries the spec's text of each list
 * that failed, with its retry; `reference` is set once every list is there.
 */
export function useRegistrationReference(): {
  reference: RegistrationReference | null;
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
          // Only active roles and systems may be asked for (the public lists hold the active ones).
          studyRoles: studyRoles.data.filter((r) => !r.inactive),
          systems: systems.data.filter((s) => !s.inactive),
          sites: options,
          studyNames,
        }
      : null;
  return { reference, failures };
}
