import type { ReactNode } from 'react';
import { paths } from '../../lib/paths';
import type { ConfigRecord } from '../api/resources';
import { ConfigFormShell, FormButtons } from '../ConfigFormShell';
import { InUseDialog } from '../InUseDialog';
import type { ConfigEditorState } from './useConfigEditor';

/**
 * A configuration editor on screen (001 §2.12): the shared frame, its buttons, the unsaved-changes and delete
 * dialogs, all driven by `useConfigEditor`; the page passes only its fields. `lifecycle` false hides
 * activate / delete (the fixed system).
 */
export function ConfigEditor<R extends ConfigRecord & { inactive: boolean }, V>({
  editor,
  lifecycle,
  children,
}: {
  editor: ConfigEditorState<R, V>;
  lifecycle?: boolean;
  children: ReactNode;
}) {
  const { kind, record, deleteDialog } = editor;
  // A viewer without ADMIN can change nothing: the page says it shows the record, not that it edits it.
  const title = `${record ? (editor.readOnly ? 'View' : 'Edit') : 'Add'} ${kind.noun}`;
  return (
    <ConfigFormShell
      title={title}
      back={editor.back}
      readOnly={editor.readOnly}
      auditLink={record ? paths.app.auditTrail.href({ entityType: kind.auditEntity, entityId: record.id }) : undefined}
      inactive={record?.inactive}
      message={editor.message}
      onCloseMessage={editor.clearMessage}
      onSubmit={editor.onSubmit}
      dialogs={
        <>
          {editor.guardDialog}
          <InUseDialog
            opened={deleteDialog.opened}
            title={`Delete ${kind.noun}?`}
            loading={deleteDialog.loading}
            loadError={deleteDialog.loadError}
            sections={deleteDialog.sections}
            noneText="No active references were found."
            confirmLabel={`Delete ${kind.noun}`}
            deleting={editor.toggling}
            onConfirm={deleteDialog.confirm}
            onClose={deleteDialog.close}
          />
        </>
      }
      actions={
        <FormButtons
          noun={kind.noun}
          editing={record}
          pending={editor.saving}
          toggling={editor.toggling}
          onReset={editor.reset}
          onCancel={editor.cancel}
          onActivate={editor.activate}
          onDelete={deleteDialog.open}
          lifecycle={lifecycle}
        />
      }
    >
      {children}
    </ConfigFormShell>
  );
}
