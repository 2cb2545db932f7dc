import { useQuery } from '@tanstack/react-query';
import type { Country, Site, SiteRelation, State, Study, StudyRole, System } from '@portal/contract';
import { request } from '../lib/apiClient';
import { SITES_STORAGE_KEY } from '../lib/config';

/**
 * Reference data (000 §4 Reference data loading, §7 Reference data; 001 §7 Systems / Study roles), cached
 * twice: in memory for the session (TanStack Query; sites also in session storage under apiSites, 000 §3),
 * and by HTTP: the lists are fetched with cache mode 'no-cache', so the browser revalidates its stored copy
 * with If-None-Match and the server answers 304 without a query. A failed load is shown with the spec's
 * 'Problem retrieving ...' text (MESSAGES.referenceData).
 */
const REFERENCE_STALE_MS = 10 * 60_000;
const SITES_LOADED_AT_KEY = `${SITES_STORAGE_KEY}.loadedAt`;

/** Keys of the reference lists; configuration changes invalidate ['reference'] (study roles, systems). */
export const referenceKeys = {
  all: ['reference'] as const,
  sites: ['reference', 'sites'] as const,
  countries: ['reference', 'countries'] as const,
  states: (country: string) => ['reference', 'states', country] as const,
  studies: ['reference', 'studies'] as const,
  relations: ['reference', 'relations'] as const,
  studyRoles: ['reference', 'studyRoles'] as const,
  systems: ['reference', 'systems'] as const,
};

async function getList<T>(path: string, signal: AbortSignal): Promise<T> {
  const { data } = await request<T>('GET', path, { signal, cache: 'no-cache' });
  return data as T;
}

function readCachedSites(): Site[] | undefined {
  try {
    const raw = sessionStorage.getItem(SITES_STORAGE_KEY);
    return raw ? (JSON.parse(raw) as Site[]) : undefined;
  } catch {
    return undefined;
  }
}

function cachedSitesLoadedAt(): number | undefined {
  const at = Number(sessionStorage.getItem(SITES_LOADED_AT_KEY));
  return Number.isFinite(at) && at > 0 ? at : undefined;
}

/** GET /rest/public/sites, kept in session storage under apiSites (000 §3, §4 Reference data loading). */
export function useSites() {
  return useQuery({
    queryKey: referenceKeys.sites,
    queryFn: async ({ signal }) => {
      const sites = await getList<Site[]>('/rest/public/sites', signal);
      try {
        sessionStorage.setItem(SITES_STORAGE_KEY, JSON.stringify(sites));
        sessionStorage.setItem(SITES_LOADED_AT_KEY, String(Date.now()));
      } catch {
        // 000 §3: session storage is assumed to hold 5 MB; a full store only loses the cache.
      }
      return sites;
    },
    initialData: readCachedSites,
    initialDataUpdatedAt: cachedSitesLoadedAt,
    staleTime: REFERENCE_STALE_MS,
  });
}

/** GET /rest/public/studies (sorted by study). */
export function useStudies() {
  return useQuery({
    queryKey: referenceKeys.studies,
    queryFn: ({ signal }) => getList<Study[]>('/rest/public/studies', signal),
    staleTime: REFERENCE_STALE_MS,
  });
}

/** GET /rest/public/countries. */
export function useCountries() {
  return useQuery({
    queryKey: referenceKeys.countries,
    queryFn: ({ signal }) => getList<Country[]>('/rest/public/countries', signal),
    staleTime: REFERENCE_STALE_MS,
  });
}

/** GET /rest/public/states/{country}; idle until a country is chosen (000 §4 Country change). */
export function useStates(country: string | null | undefined) {
  return useQuery({
    queryKey: referenceKeys.states(country ?? ''),
    queryFn: ({ signal }) => getList<State[]>(`/rest/public/states/${encodeURIComponent(country ?? '')}`, signal),
    enabled: !!country,
    staleTime: REFERENCE_STALE_MS,
  });
}

/** GET /rest/public/site_relation: the LAO-site-study relations (000 §5 filtering); idle while `enabled` is false. */
export function useSiteRelations(enabled = true) {
  return useQuery({
    queryKey: referenceKeys.relations,
    queryFn: ({ signal }) => getList<SiteRelation[]>('/rest/public/site_relation', signal),
    staleTime: REFERENCE_STALE_MS,
    enabled,
  });
}

export function useStudyRoles() {
  return useQuery({
    queryKey: referenceKeys.studyRoles,
    queryFn: ({ signal }) => getList<StudyRole[]>('/rest/public/user_registration/study_roles/', signal),
    staleTime: REFERENCE_STALE_MS,
  });
}

export function useSystems() {
  return useQuery({
    queryKey: referenceKeys.systems,
    queryFn: ({ signal }) => getList<System[]>('/rest/public/user_registration/system_accesses/', signal),
    staleTime: REFERENCE_STALE_MS,
  });
}

/** Site options for the role block (000 §3 Site): LAOs keyed by their LAO code, AOs by siteCode without LAO duplicates. */
export interface SiteOptions {
  laos: { value: string; label: string }[];
  aos: { value: string; label: string }[];
  /** Labels of every AO site code, the hidden LAO duplicates included (for values already chosen). */
  aoLabels: ReadonlyMap<string, string>;
}

export function siteOptions(sites: readonly Site[]): SiteOptions {
  const laoSites = sites.filter((s) => (s.siteType ?? s.type) === 'LAO' && s.otherIdentifier);
  const laoSiteCodes = new Set(laoSites.map((s) => s.siteCode));
  const laos = [...laoSites]
    .sort((a, b) => String(a.otherIdentifier).localeCompare(String(b.otherIdentifier)))
    .map((s) => ({
      value: s.otherIdentifier as string,
      label: `${s.otherIdentifier} - ${s.siteName}`,
    }));
  const aos = sites
    .filter((s) => (s.siteType ?? s.type) === 'AO' && !laoSiteCodes.has(s.siteCode))
    .sort((a, b) => a.siteCode.localeCompare(b.siteCode))
    .map((s) => ({ value: s.siteCode, label: `${s.siteCode} - ${s.siteName}` }));
  const aoLabels = new Map(
    sites.filter((s) => (s.siteType ?? s.type) === 'AO').map((s) => [s.siteCode, `${s.siteCode} - ${s.siteName}`]),
  );
  return { laos, aos, aoLabels };
}

/** Maps system ids to names; unknown ids show as '#id'. */
export function systemNames(ids: readonly number[], systems: readonly System[] | undefined): string[] {
  return ids.map((id) => systems?.find((s) => s.id === id)?.systemName ?? `#${id}`);
}
