import { CONFIG_MESSAGES, type Permission, type PortalRole, type UserRef } from '@portal/contract';
import { paths } from '../../lib/paths';
import { portalRoleResource } from '../api/resources';
import type { ConfigKind } from '../editor/kind';
import { countSentence } from '../inUseSections';

const M = CONFIG_MESSAGES.portalRoles;

/** The portal role editor's form: one permission per role (001 §5). */
export type PortalRoleValues = {
  description: string;
  permission: Permission | '';
};

/** Portal roles (001 §2.12, §7, §8). A toggle that does not answer 200, a 304 too, is an error (001 §7). */
export const portalRoleKind: ConfigKind<PortalRole, PortalRoleValues, UserRef[]> = {
  resource: portalRoleResource,
  noun: 'Portal Role',
  tab: { tab: 'portalRoles', label: 'Back to Portal Roles' },
  href: paths.app.configure.portalRole.href,
  auditEntity: 'PortalRole',
  labels: {
    description: { label: 'Role Name' },
    permissions: { label: 'Permissions', plural: true, field: 'permission' },
  },
  toBody: (v, role) => {
    const body = { description: v.description.trim(), permissions: [v.permission] };
    return role ? { ...body, id: role.id, sort: role.sort } : body;
  },
  name: { ofRecord: (r) => r.description, fromValues: (v) => v.description.trim() },
  texts: {
    load: M.load,
    loadReferences: M.loadReferences('users'),
    createFailed: M.createFailed,
    updateFailed: M.updateFailed,
    deleteFailed: M.deleteFailed,
    toggleFailed: M.toggleFailed,
    saved: (name, how) => (how === 'created' ? M.created(name) : M.updated(name)),
  },
  toggleNotModified: { kind: 'error' },
  inUseSections: (users) =>
    users
      ? [
          {
            summary: countSentence(users.length, 'active user', 'active users', 'this portal role'),
            items: users.map((u) => `${u.firstName} ${u.lastName} (${u.username})`),
          },
        ]
      : [],
};
