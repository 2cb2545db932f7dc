import { CONFIG_MESSAGES, type StudyRoleListItem } from '@portal/contract';
import { paths } from '../../lib/paths';
import { studyRoleResource, type StudyRoleRefs } from '../api/resources';
import type { ConfigKind } from '../editor/kind';
import { studyRoleInUseSections } from '../inUseSections';

const M = CONFIG_MESSAGES.studyRoles;

/** The study role editor's form; system ids are strings for the checkbox group. */
export type StudyRoleValues = {
  roleName: string;
  description: string;
  siteRequired: boolean;
  studyRequired: boolean;
  allowAOs: boolean;
  allowLAOs: boolean;
  systemAccessIds: string[];
};

/** Study roles (001 §2.12, §7, §8). A toggle 304 is information: 'already in an active/inactive state'. */
export const studyRoleKind: ConfigKind<StudyRoleListItem, StudyRoleValues, StudyRoleRefs> = {
  resource: studyRoleResource,
  noun: 'Study Role',
  tab: { tab: 'studyRoles', label: 'Back to Study Roles' },
  href: paths.app.configure.studyRole.href,
  auditEntity: 'StudyRole',
  labels: {
    roleName: { label: 'Role Name' },
    description: { label: 'Description' },
    siteRequired: { label: 'AOs/LAOs Required' },
    studyRequired: { label: 'Studies Required' },
    allowAOs: { label: 'Allow AOs' },
    allowLAOs: { label: 'Allow LAOs' },
    systemAccessIds: { label: 'Default Applications', plural: true },
  },
  toBody: (v, role) => ({
    ...v,
    roleName: v.roleName.trim(),
    description: v.description.trim(),
    systemAccessIds: v.systemAccessIds.map(Number),
    sort: role?.sort ?? 0,
  }),
  name: { ofRecord: (r) => r.roleName, fromValues: (v) => v.roleName.trim() },
  texts: {
    load: M.load,
    loadReferences: M.loadReferences,
    createFailed: M.createFailed,
    updateFailed: M.updateFailed,
    deleteFailed: M.deleteFailed,
    toggleFailed: () => M.toggleFailed,
    saved: (name, how) => (how === 'created' ? M.created(name) : M.updated(name)),
  },
  toggleNotModified: { kind: 'info', text: M.alreadyInState },
  inUseSections: studyRoleInUseSections,
};
