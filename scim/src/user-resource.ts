/**
 * The SCIM User the portal sends for one person (RFC 7643 §4.1): `userName`, `externalId` (the portal's
 * immutable subject id), `name`, the primary work email, `active`, and with `accessAs` EXTENSION the portal's
 * study-access extension (contract PORTAL_SCIM_EXTENSION). `driftOf` compares what a target holds with it,
 * attribute by attribute, as reconciliation reports and as the convergence decides whether to write.
 */
import {
  PORTAL_SCIM_EXTENSION,
  type ProvisioningAccessAs,
  SCIM_USER_SCHEMA,
  type ScimStudyAccess,
} from '@portal/contract';
import type { ScimResource } from './client';

/** What the portal wants a system to hold for one person (@portal/db `WantedAccount` has this shape). */
export interface ScimUserWanted {
  subjectId: string;
  userName: string;
  givenName: string;
  familyName: string;
  email: string;
  active: boolean;
  access: ReadonlyArray<{ studyRole: string; study: string; organization: string }>;
}

const accessEntries = (wanted: ScimUserWanted): ScimStudyAccess[] =>
  wanted.access.map((a) => ({ value: `${a.studyRole}/${a.study}/${a.organization}`, ...a }));

/** The full User resource (for POST and PUT). */
export function userResource(wanted: ScimUserWanted, accessAs: ProvisioningAccessAs): Record<string, unknown> {
  const resource: Record<string, unknown> = {
    schemas: accessAs === 'EXTENSION' ? [SCIM_USER_SCHEMA, PORTAL_SCIM_EXTENSION] : [SCIM_USER_SCHEMA],
    externalId: wanted.subjectId,
    userName: wanted.userName,
    name: {
      givenName: wanted.givenName,
      familyName: wanted.familyName,
      formatted: `${wanted.givenName} ${wanted.familyName}`,
    },
    displayName: `${wanted.givenName} ${wanted.familyName}`,
    emails: [{ value: wanted.email, type: 'work', primary: true }],
    active: wanted.active,
  };
  if (accessAs === 'EXTENSION') resource[PORTAL_SCIM_EXTENSION] = { studyAccess: accessEntries(wanted) };
  return resource;
}

/** One attribute that differs: its SCIM name, what the portal wants and what the target holds. */
export interface ScimDrift {
  attribute: string;
  wanted: string;
  held: string;
}

const primaryEmail = (held: ScimResource): string => {
  const emails = Array.isArray(held.emails) ? (held.emails as Array<{ value?: unknown; primary?: unknown }>) : [];
  const email = emails.find((e) => e.primary === true) ?? emails[0];
  return typeof email?.value === 'string' ? email.value : '';
};

const heldAccess = (held: ScimResource): string => {
  const ext = held[PORTAL_SCIM_EXTENSION] as { studyAccess?: Array<{ value?: unknown }> } | undefined;
  return (ext?.studyAccess ?? [])
    .map((a) => (typeof a.value === 'string' ? a.value : ''))
    .sort()
    .join(', ');
};

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

/**
 * The attributes in which `held` differs from `wanted` (emails compared without case, as mailboxes are; the
 * study access only with `accessAs` EXTENSION). Empty when in sync.
 */
export function driftOf(wanted: ScimUserWanted, held: ScimResource, accessAs: ProvisioningAccessAs): ScimDrift[] {
  const name = (held.name ?? {}) as { givenName?: unknown; familyName?: unknown };
  const pairs: Array<[string, string, string]> = [
    ['userName', wanted.userName, str(held.userName)],
    ['name.givenName', wanted.givenName, str(name.givenName)],
    ['name.familyName', wanted.familyName, str(name.familyName)],
    ['emails', wanted.email.toLowerCase(), primaryEmail(held).toLowerCase()],
    ['active', String(wanted.active), String(held.active !== false)],
  ];
  if (accessAs === 'EXTENSION') {
    const want = accessEntries(wanted)
      .map((a) => a.value)
      .sort()
      .join(', ');
    pairs.push([`${PORTAL_SCIM_EXTENSION}:studyAccess`, want, heldAccess(held)]);
  }
  return pairs.filter(([, w, h]) => w !== h).map(([attribute, w, h]) => ({ attribute, wanted: w, held: h }));
}

/**
 * The PATCH operations that make the target's user what `userResource` would (RFC 7644 §3.5.2.3: one
 * `replace` without a path; the extension's access list removed by path when the person holds none there, as
 * an empty multi-valued attribute is unassigned).
 */
export function patchOperations(
  wanted: ScimUserWanted,
  accessAs: ProvisioningAccessAs,
): Array<Record<string, unknown>> {
  const { schemas: _schemas, ...value } = userResource(wanted, accessAs);
  if (accessAs === 'EXTENSION' && !wanted.access.length) {
    delete value[PORTAL_SCIM_EXTENSION];
    return [
      { op: 'replace', value },
      { op: 'remove', path: `${PORTAL_SCIM_EXTENSION}:studyAccess` },
    ];
  }
  return [{ op: 'replace', value }];
}
