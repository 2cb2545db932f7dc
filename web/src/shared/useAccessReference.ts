import { MESSAGES, type StudyRole, type System } from '@portal/contract';
import { useMemo } from 'react';
import { type SiteOptions, siteOptions, useSites, useStudies, useStudyRoles, useSystems } from './referenceData';

/** The lists a role-block form offers: active study roles and systems, the AO/LAO options, the study names. */
export interface AccessReference {
  studyRoles: StudyRole[];
  systems: System[];
  sites: SiteOptions;
  studyNames: string[];
}

/**
 * The lists a form of role blocks needs (001 §7 public study roles and systems; 000 §7 sites and studies), all
 * from public calls so a visitor's registration form loads them too. `failures` carries the spec's text of each
 * list that failed, with its retry; `reference` is set once every list is there. Used by the registration
 * forms and the proxy page.
 */
export function useAccessReference(): {
  reference: AccessReference | null;
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
