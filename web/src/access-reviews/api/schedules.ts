import type { AccessReviewSchedule, CreateAccessReviewScheduleBody, Page } from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';
import { reviewKeys } from './reviewKeys';

/**
 * Recurring access reviews (issue 25, ADMIN): each a Temporal Schedule `access-review-schedule-<id>` filing a
 * campaign every `everyDays`. List, create (the first campaign starts now), deactivate.
 */
const URL = '/rest/secure/system_mgmt/access_review_schedules';

/** The most schedules the list reads in one call (there are a handful). */
const LIST_SIZE = 200;

/** GET .../access_review_schedules: every recurring review, active first. */
export function useSchedules() {
  return useQuery({
    queryKey: reviewKeys.schedules,
    queryFn: async ({ signal }) =>
      (await apiGet<Page<AccessReviewSchedule>>(URL, { page: 1, size: LIST_SIZE }, signal)).content,
  });
}

/** POST .../access_review_schedules: the stored schedule; 422 fieldErrors as a campaign's, plus everyDays. */
export const createSchedule = async (body: CreateAccessReviewScheduleBody) =>
  (await apiPost<AccessReviewSchedule>(URL, body)).data!;

export function useCreateSchedule({ mutationConfig }: { mutationConfig?: MutationConfig<typeof createSchedule> } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...mutationConfig,
    mutationFn: createSchedule,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      return mutationConfig?.onSuccess?.(...args);
    },
  });
}

/** POST .../access_review_schedules/{id}/deactivate: no further campaigns (running ones go on). */
export const deactivateSchedule = async (id: number) =>
  (await apiPost<AccessReviewSchedule>(`${URL}/${id}/deactivate`)).data;

export function useDeactivateSchedule({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof deactivateSchedule> } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...mutationConfig,
    mutationFn: deactivateSchedule,
    onSettled: (...args) => {
      void queryClient.invalidateQueries({ queryKey: reviewKeys.schedules });
      return mutationConfig?.onSettled?.(...args);
    },
  });
}
