import type { PublicRegistrationBody, Registration } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/apiClient';
import type { MutationConfig } from '../../../lib/reactQuery';

/**
 * POST /rest/public/user_registration (001 §7 Registrations): a visitor's registration with the captcha answer
 * in `g-recaptcha-response`. Answers the filed registration (PENDING); a refusal rejects with the ApiError (422
 * fieldErrors, the captcha's under its key).
 */
export const submitPublicRegistration = async (body: PublicRegistrationBody) =>
  (await apiPost<Registration>('/rest/public/user_registration', body)).data as Registration;

/** The public filing mutation; nothing the visitor can see is cached, so there is nothing to invalidate. */
export function useSubmitPublicRegistration({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof submitPublicRegistration> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: submitPublicRegistration });
}
