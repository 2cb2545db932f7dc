import type { AccessReportQuery } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';

/**
 * GET /rest/secure/user_access_mod_request/report (001 §7): the access-modification report as a file, with the
 * name from its content-disposition. Rejects with the ApiError of a 403 or a 422 (fieldErrors startDate,
 * endDate, proxyRequests).
 */
export const downloadAccessReport = (query: AccessReportQuery) =>
  downloadFile('/rest/secure/user_access_mod_request/report', query);

export function useDownloadAccessReport({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof downloadAccessReport> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: downloadAccessReport });
}
