import type {
  ApprovalPolicy,
  ApprovalPolicyBody,
  Page,
  ConfigStudy,
  StudyApprover,
  UserListRow,
} from '@portal/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost, apiPut, request, type ApiResponse } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';

/** Approval policies and study approvers (ADMIN): the calls of the Configure tab and the policy editor. */

export const POLICIES_PATH = '/rest/secure/system_mgmt/approval_policies';
export const policyPath = (id: number) => `${POLICIES_PATH}/${id}`;
/** A study's named approvers, addressed by the study's id. */
export const studyApproversPath = (study: StudyRef) => `/rest/secure/system_mgmt/study/${study.id}/approvers`;

/** A study as the approvers section picks it (GET /rest/secure/system_mgmt/studies). */
export type StudyRef = ConfigStudy;

export const approvalKeys = {
  policies: ['configure', 'approvalPolicies'] as const,
  studies: ['configure', 'approvalPolicies', 'studies'] as const,
  approvers: (study: string) => ['configure', 'approvalPolicies', 'approvers', study] as const,
  users: (filter: string) => ['configure', 'approvalPolicies', 'users', filter] as const,
};

/** GET the policies (every one, active or not). */
export const useApprovalPolicies = () =>
  useQuery({
    queryKey: approvalKeys.policies,
    queryFn: ({ signal }) => apiGet<ApprovalPolicy[]>(POLICIES_PATH, undefined, signal),
  });

export interface SavePolicyInput {
  /** The policy being edited; null creates one. */
  id: number | null;
  body: ApprovalPolicyBody;
}

/** POST (create) or PUT (update, with the `versionno` read) a policy; a refusal rejects with the ApiError. */
export const savePolicy = ({ id, body }: SavePolicyInput): Promise<ApiResponse<ApprovalPolicy>> =>
  id === null ? apiPost<ApprovalPolicy>(POLICIES_PATH, body) : apiPut<ApprovalPolicy>(policyPath(id), body);

/** DELETE a policy (204): requests already filed keep their plan. */
export const deletePolicy = (id: number) => request<unknown>('DELETE', policyPath(id));

/** A change of the policies refreshes their list and the audit trail. */
function usePolicyMutation<I, T>(
  mutationFn: (input: I) => Promise<ApiResponse<T>>,
  mutationConfig: MutationConfig<(input: I) => Promise<ApiResponse<T>>> = {},
) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig;
  return useMutation({
    ...rest,
    mutationFn,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: approvalKeys.policies });
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      return onSuccess?.(...args);
    },
  });
}

export const useSavePolicy = (mutationConfig?: MutationConfig<typeof savePolicy>) =>
  usePolicyMutation(savePolicy, mutationConfig);
export const useDeletePolicy = (mutationConfig?: MutationConfig<typeof deletePolicy>) =>
  usePolicyMutation(deletePolicy, mutationConfig);

/** GET /rest/secure/system_mgmt/studies: every study with its id, inactive ones too. */
export const useAdminStudies = () =>
  useQuery({
    queryKey: approvalKeys.studies,
    queryFn: ({ signal }) => apiGet<StudyRef[]>('/rest/secure/system_mgmt/studies', undefined, signal),
  });

/** GET a study's named approvers. */
export const useStudyApprovers = (study: StudyRef | null) =>
  useQuery({
    queryKey: approvalKeys.approvers(study?.study ?? ''),
    queryFn: ({ signal }) => apiGet<StudyApprover[]>(studyApproversPath(study!), undefined, signal),
    enabled: !!study,
  });

/** PUT a study's named approvers (the whole list); answers the list as stored. */
export function useSaveStudyApprovers(mutationConfig: MutationConfig<typeof saveStudyApprovers> = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig;
  return useMutation({
    ...rest,
    mutationFn: saveStudyApprovers,
    onSuccess: (...args) => {
      const [res, input] = args;
      if (res.data) queryClient.setQueryData(approvalKeys.approvers(input.study.study), res.data);
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
      return onSuccess?.(...args);
    },
  });
}

export const saveStudyApprovers = ({ study, userIds }: { study: StudyRef; userIds: number[] }) =>
  apiPut<StudyApprover[]>(studyApproversPath(study), { userIds });

/** The user picker's search: the first active users matching `filter` (GET /rest/secure/user_management/users). */
export const useUserSearch = (filter: string) =>
  useQuery({
    queryKey: approvalKeys.users(filter),
    queryFn: ({ signal }) =>
      apiGet<Page<UserListRow>>(
        '/rest/secure/user_management/users',
        { inactive: 'false', page: 1, size: 20, sort: 'person.lastName,asc', filter, filterType: 'OR' },
        signal,
      ),
    enabled: filter.trim().length >= 2,
    placeholderData: keepPreviousData,
  });
