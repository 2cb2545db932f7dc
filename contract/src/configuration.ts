import { z } from 'zod';
import { FIELD_LIMITS } from './limits';
import { BodyIdSchema } from './ids';
import { textSchema } from './text';
import { PERMISSIONS, type Permission } from './permissions';
import { REQUEST_STATUSES, REQUEST_TYPES } from './statuses';
import { PersonIdentitySchema, StudyRoleSchema, SystemSchema } from './schemas';
import type { FieldErrors } from './errors';

/**
 * The configuration of portal roles, study roles and systems (001 §2.12, §3, §4, §5, §7, §8): request
 * bodies, in-use results, the spec's rules and its messages. Shared by the API (the law) and the browser
 * (a convenience), so the two never drift.
 */

/**
 * 001 §8 texts, word for word. A '{...}' part is filled in; forms written with a slash ('activate/deactivate',
 * 'active/inactive', 'created/updated') are the spec's literal wording and are shown as written.
 */
export const CONFIG_MESSAGES = {
  portalRoles: {
    loadAll: 'Problem loading portal roles.',
    load: 'Problem loading portal role.',
    loadReferences: (what: 'users' | 'items') => `Problem loading ${what} referencing portal role.`,
    updateFailed: 'Unable to update portal role due to one or more errors.',
    createFailed: 'Unable to create portal role due to one or more errors.',
    toggleFailed: (action: 'activate' | 'deactivate') => `Unable to ${action} portal role due to one or more errors.`,
    deleteFailed: 'Unable to delete role.',
    selectPermission: 'You must select a permission',
    updated: (description: string) => `${description} updated`,
    created: (description: string) => `${description} created`,
  },
  studyRoles: {
    loadAll: 'Problem loading study-roles.',
    load: 'Problem loading study-role.',
    loadReferences: 'Problem loading items referencing study-role.',
    updateFailed: 'Unable to update study-role due to one or more errors.',
    createFailed: 'Unable to create study-role due to one or more errors.',
    toggleFailed: 'Unable to activate/deactivate study-role due to one or more errors.',
    alreadyInState: 'Study-role is already in an active/inactive state.',
    deleteFailed: 'Unable to delete study-role.',
    atLeastOneSystem: 'At least one default application must be selected',
    allowSitesToRequire: 'You must allow user-selection of AOs or LAOs in order to require that the user provide them',
    /** The generic success texts '{description} updated' / '{description} created', with the role's name. */
    updated: (roleName: string) => `${roleName} updated`,
    created: (roleName: string) => `${roleName} created`,
  },
  systems: {
    loadAll: 'Problem loading systems.',
    load: 'Problem loading system.',
    loadReferences: (items: string) => `Problem loading ${items} referencing system.`,
    updateFailed: 'Unable to update system due to one or more errors.',
    createFailed: 'Unable to create system due to one or more errors.',
    toggleFailed: (action: 'activate' | 'deactivate') => `Unable to ${action} system due to one or more errors.`,
    alreadyInState: 'System is already in an active/inactive state.',
    deleteFailed: 'Unable to delete system.',
    duplicateName: 'There is already an active system with this name.',
    saved: (name: string) => `Successfully created/updated system ${name}`,
  },
  noChanges: 'There are no changes to submit.',
  deleted: 'Deleted',
} as const;

/** What a permission lets a user do (000 §6), shown beside the single-permission radio (001 §5). */
export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  ADMIN: 'All functionality',
  WRITE_USERS: 'Approve and deny registrations, modify users, edit the review screens',
  READ_USERS: 'View registrations, users and requests; shows the Administration menu',
  USER: 'Dashboard access',
  SET_OWN_PASSWORD: 'Change own password only',
};

/**
 * "Basic" portal roles (the `includeBasic` query of 001 §7 portal_roles/getAll): roles granting nothing beyond
 * what every network user has, i.e. only USER and/or SET_OWN_PASSWORD.
 */
export function isBasicPortalRole(permissions: readonly Permission[]): boolean {
  return permissions.every((p) => p === 'USER' || p === 'SET_OWN_PASSWORD');
}

const sort = z.number().int().min(0).max(32_767);

/** A single permission chosen with a radio replaces the whole array; at least one is required (001 §5). */
const permissionsField = z
  .array(z.enum(PERMISSIONS))
  .max(PERMISSIONS.length)
  .default([])
  .transform((list) => PERMISSIONS.filter((p) => list.includes(p)))
  .refine((list) => list.length > 0, CONFIG_MESSAGES.portalRoles.selectPermission);

/** POST /rest/secure/system_mgmt/portal_roles/create (001 §7). `sort` is always 0 on create (001 §9). */
export const PortalRoleCreateBodySchema = z.object({
  description: textSchema(FIELD_LIMITS.portalRoleName, { min: 1 }),
  permissions: permissionsField,
});
export type PortalRoleCreateBody = z.infer<typeof PortalRoleCreateBodySchema>;

/** PUT /rest/secure/system_mgmt/portal_roles/update (001 §7): the role body; activation has its own calls. */
export const PortalRoleUpdateBodySchema = PortalRoleCreateBodySchema.extend({
  id: BodyIdSchema,
  sort: sort.optional(),
});
export type PortalRoleUpdateBody = z.infer<typeof PortalRoleUpdateBodySchema>;

/** 001 §4: only the actions activate and deactivate are valid for portal roles. */
export const ToggleActionSchema = z.enum(['activate', 'deactivate']);
export type ToggleAction = z.infer<typeof ToggleActionSchema>;

/** 000 §3: the allow flags may arrive nested under allowSites. */
function unnestAllowSites(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || !('allowSites' in input)) return input;
  const { allowSites, ...rest } = input as Record<string, unknown>;
  if (typeof allowSites !== 'object' || allowSites === null) return rest;
  return { ...(allowSites as Record<string, unknown>), ...rest };
}

/** POST / PUT /rest/secure/system_mgmt/study_role/[{id}] body (001 §3 Study role, §5 limits). */
export const StudyRoleBodySchema = z.preprocess(
  unnestAllowSites,
  z.object({
    roleName: textSchema(FIELD_LIMITS.studyRoleName, { min: 1 }),
    description: textSchema(FIELD_LIMITS.studyRoleDescription, { min: 1 }),
    siteRequired: z.boolean().default(false),
    studyRequired: z.boolean().default(false),
    allowAOs: z.boolean().default(true),
    allowLAOs: z.boolean().default(true),
    systemAccessIds: z
      .array(BodyIdSchema)
      .max(100)
      .default([])
      .transform((ids) => [...new Set(ids)].sort((a, b) => a - b))
      .refine((ids) => ids.length > 0, CONFIG_MESSAGES.studyRoles.atLeastOneSystem),
    /** Used on create only; activate/deactivate change it afterwards. */
    inactive: z.boolean().default(false),
    /** 0 on create when absent; an update without it keeps the current value. */
    sort: sort.optional(),
  }),
);
export type StudyRoleBody = z.infer<typeof StudyRoleBodySchema>;

/**
 * The study role's cross-field rule (001 §5): a role that requires sites must allow AOs or LAOs. Keyed
 * `siteRequired`. (At least one default system is the schema's; the fixed system is checked by the server.)
 */
export function studyRoleRuleErrors(body: Pick<StudyRoleBody, 'siteRequired' | 'allowAOs' | 'allowLAOs'>): FieldErrors {
  if (body.siteRequired && !body.allowAOs && !body.allowLAOs) {
    return { siteRequired: [CONFIG_MESSAGES.studyRoles.allowSitesToRequire] };
  }
  return {};
}

/** POST / PUT /rest/secure/system_mgmt/system_access/[{id}] body (001 §3 System, §5 limits, §7). */
export const SystemBodySchema = z.object({
  systemName: textSchema(FIELD_LIMITS.systemName, { min: 1 }),
  description: textSchema(FIELD_LIMITS.systemDescription).default(''),
  /** Used on create only; activate/deactivate change it afterwards. */
  inactive: z.boolean().default(false),
  /** 0 on create when absent; an update without it keeps the current value. */
  sort: sort.optional(),
});
export type SystemBody = z.infer<typeof SystemBodySchema>;

/** Study roles as the configuration lists them: with the names of their default systems (001 §2.12, §3). */
export const StudyRoleListItemSchema = StudyRoleSchema.extend({ defaultApplicationNames: z.array(z.string()) });
export type StudyRoleListItem = z.infer<typeof StudyRoleListItemSchema>;

/** Whether a system is the fixed 'Portal Gateway' (always selected, not removable, not deactivatable). */
export const SystemDetailSchema = SystemSchema.extend({ fixed: z.boolean() });
export type SystemDetail = z.infer<typeof SystemDetailSchema>;

// --- In-use results (001 §3 "Role in-use result", "Items that can reference a system") -------------------

/** An active user referencing a portal role, study role or system. */
export const UserRefSchema = z.object({ id: z.number().int(), ...PersonIdentitySchema.omit({ uuid: true }).shape });
export type UserRef = z.infer<typeof UserRefSchema>;

/** A pending registration referencing a study role or system (registrations are not built yet). */
export const PendingUserRefSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});
export type PendingUserRef = z.infer<typeof PendingUserRefSchema>;

/** An outstanding (unresolved) access-modification request referencing a study role or system. */
export const OutstandingRequestRefSchema = z.object({
  id: z.number().int(),
  requestType: z.enum(REQUEST_TYPES),
  requestStatus: z.enum(REQUEST_STATUSES),
  subjectUserId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  sysdat: z.string(),
});
export type OutstandingRequestRef = z.infer<typeof OutstandingRequestRefSchema>;

export const StudyRoleRefSchema = z.object({ id: z.number().int(), roleName: z.string(), inactive: z.boolean() });
export type StudyRoleRef = z.infer<typeof StudyRoleRefSchema>;
