/**
 * The Security tab's calls (issue 37; api/src/features/second-factor/routes.ts): the person's second factors
 * (authenticator apps, passkeys and security keys) and what changes them. Every change refreshes the overview.
 */
import type {
  BeginPasskeyBody,
  BeginTotpBody,
  ConfirmTotpAnswer,
  RecoveryCodesAnswer,
  SecondFactorOverview,
  TotpEnrolmentAnswer,
} from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/apiClient';
import { createPasskey, type PasskeyOptions } from '../../lib/webauthn';

const OVERVIEW = ['second-factor'] as const;
const BASE = '/rest/secure/second_factor';

const post = async <T>(path: string, body: object): Promise<T> => (await request<T>('POST', path, { body })).data as T;

/** The signed-in person's factors and recovery codes left (no secrets). */
export const useSecondFactors = () =>
  useQuery({
    queryKey: OVERVIEW,
    queryFn: async () => (await request<SecondFactorOverview>('GET', BASE)).data as SecondFactorOverview,
  });

/** A mutation of the factors that refreshes the overview once done (also when refused). */
function useFactorChange<V, T>(call: (v: V) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: OVERVIEW }),
  });
}

/** The password again and the device's name: the secret, shown once. */
export const useBeginTotp = () =>
  useFactorChange((body: BeginTotpBody) => post<TotpEnrolmentAnswer>(`${BASE}/totp`, body));

/** A code from the app for the enrolment: ACTIVE, or AWAITING_EMAIL for a first factor. */
export const useConfirmTotp = () =>
  useFactorChange(({ factorId, code }: { factorId: number; code: string }) =>
    post<ConfirmTotpAnswer>(`${BASE}/totp/${factorId}/confirm`, { code }),
  );

/** The mailed link's token: the first factor signs in from now on; its recovery codes, shown once. */
export const useConfirmLink = () =>
  useFactorChange((token: string) => post<RecoveryCodesAnswer>(`${BASE}/confirm_email`, { token }));

/**
 * A passkey or security key: the password again and its name give the creation options, the browser makes the
 * credential, the API stores it: ACTIVE (with recovery codes when none were left), or AWAITING_EMAIL for a
 * first factor. Rejects with the API's ApiError, or a PasskeyError when the browser's prompt fails.
 */
export const useAddPasskey = () =>
  useFactorChange(async (body: BeginPasskeyBody) => {
    const { options } = await post<{ options: PasskeyOptions }>(`${BASE}/webauthn/options`, body);
    const credential = await createPasskey(options);
    return post<ConfirmTotpAnswer>(`${BASE}/webauthn`, { credential });
  });

/** New recovery codes (the password again), shown once. */
export const useRenewRecoveryCodes = () =>
  useFactorChange((password: string) => post<RecoveryCodesAnswer>(`${BASE}/recovery_codes`, { password }));

/** Removes a factor (the password again). */
export const useRemoveFactor = () =>
  useFactorChange(({ factorId, password }: { factorId: number; password: string }) =>
    post<object>(`${BASE}/${factorId}/remove`, { password }),
  );
