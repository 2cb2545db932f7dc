import { Alert, Stack } from '@mantine/core';
import { FIELD_LIMITS, type SystemDetail } from '@portal/contract';
import { CountedTextarea, CountedTextInput } from '../shared/CountedText';
import { ConfigEditor } from './editor/ConfigEditor';
import { ConfigEditorRoute } from './editor/ConfigEditorRoute';
import { textField } from './editor/textField';
import { useConfigEditor } from './editor/useConfigEditor';
import { systemKind } from './kinds/system';
import { ProvisioningSection } from './provisioning/ProvisioningSection';
import { SsoClientSection } from './sso/SsoClientSection';

/**
 * /app/configure/systems/new 'Add System' and /app/configure/systems/{id} 'Edit System' (001 §2.12); an existing
 * system other than the fixed one also has its 'Single sign-on' section (issue 22) and its 'Provisioning (SCIM)'
 * section (issue 41).
 */
export function SystemPage() {
  return (
    <ConfigEditorRoute kind={systemKind}>
      {(system) => (
        <Stack gap="xl">
          <SystemForm system={system} />
          {system && !system.fixed && <SsoClientSection system={system} />}
          {system && !system.fixed && <ProvisioningSection system={system} />}
        </Stack>
      )}
    </ConfigEditorRoute>
  );
}

function SystemForm({ system }: { system: SystemDetail | null }) {
  const editor = useConfigEditor(systemKind, system, {
    initialValues: { systemName: system?.systemName ?? '', description: system?.description ?? '' },
    validate: { systemName: (v) => (v.trim() ? null : 'System Name is required') },
  });
  return (
    <ConfigEditor editor={editor} lifecycle={!system?.fixed}>
      {system?.fixed && (
        <Alert color="blue" role="status">
          This is the fixed system: every role block includes it, so its name cannot change and it cannot be deleted.
        </Alert>
      )}
      <CountedTextInput
        label="System Name"
        maxLength={FIELD_LIMITS.systemName}
        required
        {...textField(editor, 'systemName')}
        readOnly={editor.readOnly || !!system?.fixed}
      />
      <CountedTextarea
        label="Description (optional)"
        maxLength={FIELD_LIMITS.systemDescription}
        {...textField(editor, 'description')}
      />
    </ConfigEditor>
  );
}
