import { useQuery } from '@tanstack/react-query';
import type { Site, Study, StudyRole, System } from '@portal/contract';
import { apiGet } from '../app/api';
import { SITES_STORAGE_KEY } from '../app/config';

/** Public reference data (000 §7 Reference data, 001 §7 Systems / Study roles). Cached for the session. */
const REFERENCE_STALE_MS = 10 * 60_000;

function readCachedSites(): Site[] | undefined {
  try {
    const raw = sessionStorage.getItem(SITES_STORAGE_KEY);
    return raw ? (JSON.parse(raw) as Site[]) : undefined;
  } catch {
    return undefined;
  }
}

/** GET /rest/public/sites, kept in session storage under apiSites (000 §3, §4 Reference data loading). */
export function useSites() {
  return useQuery({
    queryKey: ['reference', 'sites'],
    queryFn: async ({ signal }) => {
      const sites = await apiGet<Site[]>('/rest/public/sites', undefined, signal);
      try {
        sessionStorage.setItem(SITES_STORAGE_KEY, JSON.stringify(sites));
      } catch {
        // 000 §3: session storage is assumed to hold 5 MB; a full store only loses the cache.
      }
      return sites;
    },
    initialData: readCachedSites,
    staleTime: REFERENCE_STALE_MS,
  });
}

export function useStudies() {
  return useQuery({
    queryKey: ['reference', 'studies'],
    queryFn: ({ signal }) => apiGet<Study[]>('/rest/public/studies', undefined, signal),
    staleTime: REFERENCE_STALE_MS,
  });
}

export function useStudyRoles() {
  return useQuery({
    queryKey: ['reference', 'studyRoles'],
    queryFn: ({ signal }) => apiGet<StudyRole[]>('/rest/public/user_registration/study_roles/', undefined, signal),
    staleTime: REFERENCE_STALE_MS,
  });
}

export function useSystems() {
  return useQuery({
    queryKey: ['reference', 'systems'],
    queryFn: ({ signal }) => apiGet<System[]>('/rest/public/user_registration/system_accesses/', undefined, signal),
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
  const laos = laoSites.map((s) => ({
    value: s.otherIdentifier as string,
    label: `${s.otherIdentifier} - ${s.siteName}`,
  }));
  const aos = sites
    .filter((s) => (s.siteType ?? s.type) === 'AO' && !laoSiteCodes.has(s.siteCode))
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
