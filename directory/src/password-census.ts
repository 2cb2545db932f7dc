/**
 * How many person entries store their password in each form (docs/decisions.md "Passwords stored with
 * Argon2id"): what /metrics reports, so an operator sees the {SSHA} values still waiting for their owners'
 * next sign-in. A paged read of ou=people's userPassword values as the directory admin; the values are only
 * classified, never kept.
 */
import { withAdmin } from './client';
import { type DirectoryConfig, peopleDn } from './config';
import { argon2ParamsOf, hashScheme, isCurrentHash } from './password';

/**
 * The forms counted: `argon2id` (the configured cost), `argon2id_other_cost` (argon2id at another cost),
 * `argon2i` (slapd's own hashing), `ssha`, `sha`, `other`. Everything but `argon2id` is re-hashed at the
 * owner's next sign-in.
 */
export const PASSWORD_FORMS = ['argon2id', 'argon2id_other_cost', 'argon2i', 'ssha', 'sha', 'other'] as const;
export type PasswordForm = (typeof PASSWORD_FORMS)[number];

/** Entries read per page of the search. */
const PAGE_SIZE = 500;

/** The form of one stored value at the configured cost. */
function formOf(stored: string, current: (v: string) => boolean): PasswordForm {
  const scheme = hashScheme(stored);
  if (scheme === 'ARGON2ID') return current(stored) ? 'argon2id' : 'argon2id_other_cost';
  return scheme === 'ARGON2I' ? 'argon2i' : scheme === 'SSHA' ? 'ssha' : scheme === 'SHA' ? 'sha' : 'other';
}

/**
 * Counts the person entries with a password by the form of their (first) stored value.
 * @throws on an unreachable directory.
 */
export async function countPasswordForms(cfg: DirectoryConfig): Promise<Record<PasswordForm, number>> {
  const params = argon2ParamsOf(cfg);
  const counts = Object.fromEntries(PASSWORD_FORMS.map((f) => [f, 0])) as Record<PasswordForm, number>;
  await withAdmin(cfg, async (c) => {
    // Page by page, so memory stays one page whatever the directory's size.
    const pages = c.searchPaginated(peopleDn(cfg), {
      scope: 'one',
      filter: '(&(objectClass=inetOrgPerson)(userPassword=*))',
      attributes: ['userPassword'],
      paged: { pageSize: PAGE_SIZE },
    });
    for await (const { searchEntries } of pages) {
      for (const entry of searchEntries) {
        const first = ([] as unknown[]).concat(entry['userPassword'] ?? []).map(String)[0];
        if (first !== undefined) counts[formOf(first, (v) => isCurrentHash(v, params))]++;
      }
    }
  });
  return counts;
}
