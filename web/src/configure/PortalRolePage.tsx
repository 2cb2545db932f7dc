import { Radio, Stack, Text } from '@mantine/core';
import { CONFIG_MESSAGES, FIELD_LIMITS, PERMISSION_DESCRIPTIONS, PERMISSIONS, type PortalRole } from '@portal/contract';
import { CountedTextInput } from '../shared/CountedText';
import { ConfigEditor } from './editor/ConfigEditor';
import { ConfigEditorRoute } from './editor/ConfigEditorRoute';
import { textField } from './editor/textField';
import { useConfigEditor } from './editor/useConfigEditor';
import { portalRoleKind } from './kinds/portalRole';

/** /app/configure/roles/new 'Add Portal Role' and /app/configure/roles/{id} 'Edit Portal Role' (001 §2.12). */
export function PortalRolePage() {
  return <ConfigEditorRoute kind={portalRoleKind}>{(role) => <PortalRoleForm role={role} />}</ConfigEditorRoute>;
}

function PortalRoleForm({ role }: { role: PortalRole | null }) {
  const editor = useConfigEditor(portalRoleKind, role, {
    initialValues: { description: role?.description ?? '', permission: role?.permissions[0] ?? '' },
    validate: {
      description: (v) => (v.trim() ? null : 'Role Name is required'),
      permission: (v) => (v ? null : CONFIG_MESSAGES.portalRoles.selectPermission),
    },
  });
  const { form, readOnly } = editor;
  const held = role?.permissions ?? [];
  return (
    <ConfigEditor editor={editor}>
      <CountedTextInput
        label="Role Name"
        maxLength={FIELD_LIMITS.portalRoleName}
        required
        {...textField(editor, 'description')}
        onBlur={() => form.setFieldValue('description', form.values.description.trim())}
      />
      <Radio.Group label="Permissions" required withAsterisk={false} {...form.getInputProps('permission')}>
        <Stack gap="xs" mt="xs">
          {PERMISSIONS.map((p) => (
            <Radio key={p} value={p} label={p} description={PERMISSION_DESCRIPTIONS[p]} disabled={readOnly} />
          ))}
        </Stack>
      </Radio.Group>
      {held.length > 1 && (
        <Text size="sm" c="dimmed">
          This role holds {held.join(', ')}; saving keeps only the permission chosen above.
        </Text>
      )}
    </ConfigEditor>
  );
}
