import type { AuditEntityType } from '@portal/contract';
import type { ConfigureTab } from '../../lib/paths';
import type { ConfigRecord, ConfigResource, ToggleAction } from '../api/resources';
import type { FieldLabels } from '../errors';
import type { InUseSection } from '../InUseDialog';

/**
 * What distinguishes one configuration editor from another (001 §2.12): its resource, where it lives, its
 * labels, how form values become the request body, the spec's texts (their shapes differ per kind, 001 §8)
 * and the one real difference in behaviour, `toggleNotModified`. Everything else (messages, the delete
 * dialog, the unsaved-changes guard, save and toggle, the loader) is `useConfigEditor` and
 * `ConfigEditorRoute`, written once.
 */
export interface ConfigKind<R extends ConfigRecord, V, Refs> {
  resource: ConfigResource<R, Refs>;
  /** 'Portal Role': the buttons ('Save Portal Role'), titles ('Edit Portal Role') and dialog read it. */
  noun: string;
  /** The Configure tab the editor returns to, and its label ('Back to Portal Roles'). */
  tab: { tab: ConfigureTab; label: string };
  /** The editor's address: `new` or an id. */
  href: (id: number | 'new') => string;
  /** The record's history in the audit trail. */
  auditEntity: AuditEntityType;
  /** Server field names and how the spec names them. */
  labels: FieldLabels;
  /** The create / update body from the form's values; `record` is null when creating. */
  toBody: (values: V, record: R | null) => unknown;
  /** The record's name in the success texts; `fromValues` when the answer carries no record. */
  name: { ofRecord: (record: R) => string; fromValues: (values: V) => string };
  texts: {
    load: string;
    loadReferences: string;
    createFailed: string;
    updateFailed: string;
    deleteFailed: string;
    toggleFailed: (action: ToggleAction) => string;
    /** The success notification of a save or an activation. */
    saved: (name: string, how: 'created' | 'updated') => string;
  };
  /**
   * A toggle answered 304 (already in that state): 'info' shows the kind's text (systems, study roles:
   * 'already in an active/inactive state', 001 §8); 'error' treats any non-200 answer as a failure (portal
   * roles, 001 §7).
   */
  toggleNotModified: { kind: 'info'; text: string } | { kind: 'error' };
  /** The delete dialog's sections from the in-use look-ups (001 §4). */
  inUseSections: (refs: Refs | undefined) => InUseSection[];
}
