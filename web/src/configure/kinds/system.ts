import { CONFIG_MESSAGES, type SystemDetail } from '@portal/contract';
import { paths } from '../../lib/paths';
import { systemResource, type SystemRefs } from '../api/resources';
import type { ConfigKind } from '../editor/kind';
import { systemInUseSections } from '../inUseSections';

const M = CONFIG_MESSAGES.systems;

export type SystemValues = {
  systemName: string;
  description: string;
};

/** Systems (001 §2.12, §7, §8). A toggle 304 is information: 'already in an active/inactive state'. */
export const systemKind: ConfigKind<SystemDetail, SystemValues, SystemRefs> = {
  resource: systemResource,
  noun: 'System',
  tab: { tab: 'systems', label: 'Back to Systems' },
  href: paths.app.configure.system.href,
  auditEntity: 'SystemAccess',
  labels: { systemName: { label: 'System Name' }, description: { label: 'Description' } },
  toBody: (v, system) => ({
    systemName: v.systemName.trim(),
    description: v.description.trim(),
    sort: system?.sort ?? 0,
  }),
  name: { ofRecord: (s) => s.systemName, fromValues: (v) => v.systemName.trim() },
  texts: {
    load: M.load,
    loadReferences: M.loadReferences('items'),
    createFailed: M.createFailed,
    updateFailed: M.updateFailed,
    deleteFailed: M.deleteFailed,
    toggleFailed: M.toggleFailed,
    // 001 §8 has one text for both: 'Successfully created/updated system {name}'.
    saved: (name) => M.saved(name),
  },
  toggleNotModified: { kind: 'info', text: M.alreadyInState },
  inUseSections: systemInUseSections,
};
