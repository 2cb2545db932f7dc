import { Checkbox, Group, SimpleGrid, Stack } from '@mantine/core';
import {
  CONFIG_MESSAGES,
  CONSTANTS,
  FIELD_LIMITS,
  studyRoleRuleErrors,
  type StudyRoleListItem,
  type SystemDetail,
} from '@portal/contract';
import type { ReactNode } from 'react';
import { CountedTextarea, CountedTextInput } from '../shared/CountedText';
import { LoadError } from '../shared/ErrorAlert';
import { PageLoader } from '../shared/PageLoader';
import { useConfigList } from './api/getConfigList';
import { systemResource } from './api/resources';
import { ConfigEditor } from './editor/ConfigEditor';
import { ConfigEditorRoute } from './editor/ConfigEditorRoute';
import { textField } from './editor/textField';
import { useConfigEditor } from './editor/useConfigEditor';
import { studyRoleKind, type StudyRoleValues } from './kinds/studyRole';

const M = CONFIG_MESSAGES.studyRoles;

/** /app/configure/study-roles/new and /app/configure/study-roles/{id}: add mode without an id, edit mode with one (001 §2.12). */
export function StudyRolePage() {
  return (
    <ConfigEditorRoute kind={studyRoleKind}>
      {(role) => <WithSystems>{(s) => <StudyRoleForm role={role} systems={s} />}</WithSystems>}
    </ConfigEditorRoute>
  );
}

/** The Default Applications choices need every system (inactive ones too) before the form starts. */
function WithSystems({ children }: { children: (systems: SystemDetail[]) => ReactNode }) {
  const systems = useConfigList(systemResource);
  if (systems.isError)
    return <LoadError text={CONFIG_MESSAGES.systems.loadAll} onRetry={() => void systems.refetch()} />;
  if (!systems.data) return <PageLoader label="Loading the study role" />;
  return <>{children(systems.data)}</>;
}

function StudyRoleForm({ role, systems }: { role: StudyRoleListItem | null; systems: SystemDetail[] }) {
  const fixed =
    systems.find((s) => s.fixed && !s.inactive) ?? systems.find((s) => s.systemName === CONSTANTS.fixedSystemName);
  // Active systems, plus inactive ones the role already has (shown so they can be removed).
  const offered = systems
    .filter((s) => !s.inactive || role?.systemAccessIds.includes(s.id))
    .sort((a, b) => Number(b.fixed) - Number(a.fixed) || a.sort - b.sort || a.systemName.localeCompare(b.systemName));
  const initialSystems = role ? role.systemAccessIds.map(String) : fixed ? [String(fixed.id)] : [];
  const editor = useConfigEditor(studyRoleKind, role, {
    initialValues: {
      roleName: role?.roleName ?? '',
      description: role?.description ?? '',
      siteRequired: role?.siteRequired ?? false,
      studyRequired: role?.studyRequired ?? false,
      allowAOs: role?.allowAOs ?? true,
      allowLAOs: role?.allowLAOs ?? true,
      // 001 §5: the default system is always pre-selected in the study-role editor.
      systemAccessIds:
        fixed && !initialSystems.includes(String(fixed.id)) ? [String(fixed.id), ...initialSystems] : initialSystems,
    },
    validate: (v) => ({
      roleName: v.roleName.trim() ? null : 'Role Name is required',
      description: v.description.trim() ? null : 'Description is required',
      systemAccessIds: v.systemAccessIds.length ? null : M.atLeastOneSystem,
      siteRequired: studyRoleRuleErrors(v).siteRequired?.[0] ?? null,
    }),
  });
  const { form, readOnly } = editor;
  const field = (name: keyof StudyRoleValues) => ({
    ...form.getInputProps(name, { type: 'checkbox' }),
    disabled: readOnly,
  });
  return (
    <ConfigEditor editor={editor}>
      <CountedTextInput
        label="Role Name"
        maxLength={FIELD_LIMITS.studyRoleName}
        required
        {...textField(editor, 'roleName')}
      />
      <CountedTextarea
        label="Description"
        maxLength={FIELD_LIMITS.studyRoleDescription}
        required
        {...textField(editor, 'description')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Stack gap="xs">
          <Checkbox label="Allow AOs" description="Users may pick affiliate organizations" {...field('allowAOs')} />
          <Checkbox
            label="Allow LAOs"
            description="Users may pick lead academic organizations"
            {...field('allowLAOs')}
          />
        </Stack>
        <Stack gap="xs">
          <Checkbox
            label="AOs/LAOs Required"
            description="At least one AO or LAO must be chosen"
            {...field('siteRequired')}
          />
          <Checkbox
            label="Studies Required"
            description="At least one study must be chosen"
            {...field('studyRequired')}
          />
        </Stack>
      </SimpleGrid>
      <Checkbox.Group
        label="Default Applications"
        withAsterisk={false}
        description={`Systems pre-selected in a request for this role; ${CONSTANTS.fixedSystemName} is always included.`}
        required
        {...form.getInputProps('systemAccessIds')}
      >
        <Group mt="xs" gap="md">
          {offered.map((s) => (
            <Checkbox
              key={s.id}
              value={String(s.id)}
              label={s.inactive ? `${s.systemName} (inactive)` : s.systemName}
              disabled={readOnly || s.id === fixed?.id}
            />
          ))}
        </Group>
      </Checkbox.Group>
    </ConfigEditor>
  );
}
