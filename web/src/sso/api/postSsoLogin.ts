import { SSO_LOGIN_PATH, SsoLoginAnswerSchema, type SsoLoginAnswer } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { ApiError, request } from '../../lib/apiClient';
import type { MutationConfig } from '../../lib/reactQuery';

/**
 * POST `SSO_LOGIN_PATH(uid)` (issue 22): the portal's sign-in step of the provider's interaction `uid`, with
 * an empty JSON body, the portal session cookie (same-site, so the SameSite=Strict cookie is sent) and the
 * XSRF header. 200 answers where to go on or the refusal to show; a 401 (no portal session) and any other
 * failure reject with the ApiError; an answer of another shape, or a CONTINUE to anything but an http(s)
 * address, rejects too.
 */
export async function postSsoLogin(uid: string): Promise<SsoLoginAnswer> {
  const { data } = await request<unknown>('POST', SSO_LOGIN_PATH(uid), { body: {}, ignoreUnauthorized: true });
  const parsed = SsoLoginAnswerSchema.safeParse(data);
  if (!parsed.success || (parsed.data.outcome === 'CONTINUE' && !isWebAddress(parsed.data.redirectTo))) {
    throw new ApiError(502, { message: 'The sign-in service gave an answer the portal does not understand.' });
  }
  return parsed.data;
}

/** Only an http(s) address may go to `window.location` (the provider's resume URL, never a script URL). */
function isWebAddress(target: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(target, window.location.origin).protocol);
  } catch {
    return false;
  }
}

/** The sign-in step as a mutation (the screen decides where each answer leads). */
export function useSsoLogin({ mutationConfig }: { mutationConfig?: MutationConfig<typeof postSsoLogin> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: postSsoLogin });
}
