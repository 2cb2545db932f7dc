/**
 * The password typed again (the second factors' changes, electronic signatures): a bind as the person.
 */
import { SECOND_FACTOR_TEXTS as T } from '@portal/contract';
import { bindAsUser, findPerson } from '@portal/directory';
import type { Deps } from '../deps';
import { unavailable, unprocessable } from '../http/errors';
import type { AuthContext } from './guard';

/**
 * Checks the password the person typed again with a bind as them (slapd's policy counts a wrong one as a
 * failed sign-in, so it is no way around the lockout). @throws HttpError 422 `password` when it is wrong, 503
 * when the directory cannot answer.
 */
export async function requirePassword(deps: Deps, auth: AuthContext, password: string): Promise<void> {
  let bound: { ok: boolean };
  try {
    const person = await findPerson(deps.directory, auth.username);
    bound = person ? await bindAsUser(deps.directory, person.dn, password) : { ok: false };
  } catch {
    // slapd stopped or past LDAP_TIMEOUT_MS: the person tries again, nothing was changed.
    throw unavailable(T.directoryUnavailable);
  }
  if (!bound.ok) throw unprocessable({ password: [T.passwordWrong] });
}
