import type { Registration } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/apiClient';

/** GET /rest/secure/user_registration/{id} (001 §7 Registrations): one registration as 001 §3 shapes it. */
export const getRegistration = (id: number, signal?: AbortSignal) =>
  apiGet<Registration>(`/rest/secure/user_registration/${id}`, undefined, signal);

export const registrationKeys = {
  one: (id: number) => ['registration', id] as const,
};

export const registrationQueryOptions = (id: number) =>
  queryOptions({ queryKey: registrationKeys.one(id), queryFn: ({ signal }) => getRegistration(id, signal) });

/** Nothing is loaded for an id that cannot exist. */
export function useRegistration(id: number) {
  return useQuery({ ...registrationQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
}
