import { MESSAGES, type RelationIndex, type StudyRole, type System, relationIndex } from '@portal/contract';
import { useMemo } from 'react';
import {
  type SiteOptions,
  siteOptions,
  useSiteRelations,
  useSites,
  useStudies,
  useStudyRoles,
  useSystems,
} from './referenceData';

/** The lists a role-block form offers: active study roles and systems, the AO/LAO options, the study names. */
export interface AccessReference {
  studyRoles: StudyRole[];
  systems: System[];
  sites: SiteOptions;
  studyNames: string[];
}

/** What an editor of a user's current access also needs: the LAO-site-study relations (null while missing). */
export interface EditorReference extends AccessReference {
  relations: RelationIndex | null;
}

/** The four lists of every role-block form, and the site options and study names made from them. */
function useReferenceLists() {
  const studyRoles = useStudyRoles();
  const systems = useSystems();
  const sites = useSites();
  const studies = useStudies();
  const options = useMemo(() => siteOptions(sites.data ?? []), [sites.data]);
  const studyNames = useMemo(() => (studies.data ?? []).map((s) => s.study), [studies.data]);
  return { studyRoles, systems, sites, studies, options, studyNames };
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
  const { studyRoles, systems, sites, studies, options, studyNames } = useReferenceLists();
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

/**
 * The reference data of an editor of a user's current access (the admin Access tab, the access-change review):
 * every study role and system as listed (a held record may name one since made inactive) and the relations,
 * which only narrow options and so may be missing. @returns the data once the four lists are there, whether
 * a load failed, and a retry of every list.
 */
export function useEditorReference(): { data: EditorReference | null; failed: boolean; retry: () => void } {
  const { studyRoles, systems, sites, studies, options, studyNames } = useReferenceLists();
  const relations = useSiteRelations();
  const index = useMemo(() => (relations.data ? relationIndex(relations.data) : null), [relations.data]);
  const all = [studyRoles, sites, studies, systems];
  const data =
    studyRoles.data && sites.data && studies.data && systems.data
      ? { studyRoles: studyRoles.data, sites: options, studyNames, systems: systems.data, relations: index }
      : null;
  return {
    data,
    failed: all.some((q) => q.isError),
    retry: () => all.forEach((q) => void q.refetch()),
  };
}
