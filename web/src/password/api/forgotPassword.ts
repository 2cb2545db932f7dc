import { AUTH_CONSTANTS, type ForgotPasswordBody } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';

import { sleep } from '../../lib/sleep';

/**
 * POST /rest/public/forgot_password (000 §4 Forgot password, §7), after the spec's fixed delay (000 §9); resolves
 * with the address it was sent for.
 */
export async function forgotPassword(body: ForgotPasswordBody): Promise<string> {
  await sleep(AUTH_CONSTANTS.forgotPasswordDelayMs);
  await apiPost('/rest/public/forgot_password', body);
  return body.emailAddress;
}

/** The forgot-password mutation; nothing to invalidate (no session). */
export function useForgotPassword({ mutationConfig }: { mutationConfig?: MutationConfig<typeof forgotPassword> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: forgotPassword });
}
