/**
 * The reference-code checks of a user's Details fields (000 §3 Country, State; 000 §7 update_user and
 * user_profile_mod): a country must be in the countries list, and a state among the chosen country's states.
 * Shared by the user detail's save and the profile's.
 */
import type { FieldErrors } from '@portal/contract';
import type { Prisma } from '@portal/db';

/**
 * The field errors of `next`'s country and state codes read with `tx`: `{ country: ['unknown'] }` and/or
 * `{ state: ['unknown'] }` (a state without a country is unknown too); `{}` when both are fine or absent.
 */
export async function referenceCodeErrors(
  tx: Prisma.TransactionClient,
  next: { country: string | null; state: string | null },
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (next.country && !(await tx.country.findUnique({ where: { country: next.country } }))) {
    errors.country = ['unknown'];
  }
  if (next.state) {
    const state = next.country
      ? await tx.state.findUnique({ where: { country_state: { country: next.country, state: next.state } } })
      : null;
    if (!state) errors.state = ['unknown'];
  }
  return errors;
}
