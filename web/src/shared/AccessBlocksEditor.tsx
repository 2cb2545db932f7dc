import { Button, Group, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { AccessBlock } from './accessBlocks';
import { RoleBlock } from './RoleBlock';
import type { EditorReference } from './useAccessReference';
import { blockErrors, emptyBlock, nextQuestionNum, reindexBlockErrors, rolesUsedElsewhere } from './roleBlockForm';

/**
 * A user's access as repeatable role blocks (000 §2 Access tab, Shared widgets; 001 §2.8): each block with
 * 'Remove role', 'Add new role' below (a new block's questionNum one above the highest, 001 §3), a study role
 * used in another block not offered (000 §5). Errors are the form's `accessControls.{i}.{field}` paths; a
 * removed block's errors go and later ones move up with their blocks (001 §5). The blocks live in `form` at
 * `accessControls`, their errors in its errors.
 */
export function AccessBlocksEditor<V extends { accessControls: AccessBlock[] }>({
  form,
  reference,
  readOnly,
  emptyText = 'No access.',
}: {
  form: UseFormReturnType<V>;
  reference: EditorReference;
  readOnly: boolean;
  emptyText?: string;
}) {
  const { studyRoles, systems } = reference;
  const value = form.values.accessControls;
  const errors = form.errors;
  // Mantine cannot resolve the path's type on a generic form; V's `accessControls` is AccessBlock[] by its bound.
  const onChange = (blocks: AccessBlock[]) =>
    form.setFieldValue('accessControls', blocks as Parameters<typeof form.setFieldValue<V, 'accessControls'>>[1]);
  const onErrorsChange = (next: Record<string, unknown>) => form.setErrors(next as Record<string, string>);
  const setBlock = (index: number, next: AccessBlock) => {
    onChange(value.map((b, i) => (i === index ? next : b)));
    const rest = { ...errors };
    for (const field of ['roleName', 'sites', 'studyNames', 'systemAccessIds', 'accessEndDate']) {
      delete rest[`accessControls.${index}.${field}`];
    }
    onErrorsChange(rest);
  };
  const removeBlock = (index: number) => {
    onErrorsChange(reindexBlockErrors(errors, index));
    onChange(value.filter((_, i) => i !== index));
  };
  const addBlock = () =>
    onChange([...value, { ...emptyBlock(nextQuestionNum(value), systems), recordId: null, versionno: null }]);
  const allRolesUsed = studyRoles.every((r) => value.some((b) => b.roleName === r.roleName));

  return (
    <Stack gap="sm">
      {value.length === 0 && <Text c="dimmed">{emptyText}</Text>}
      {value.map((block, index) => (
        <RoleBlock
          key={block.key}
          index={index}
          value={block}
          onChange={(next) => setBlock(index, { ...block, ...next })}
          errors={blockErrors(errors, index)}
          studyRoles={studyRoles}
          sites={reference.sites}
          studyNames={reference.studyNames}
          systems={systems}
          relations={reference.relations}
          excludedRoleNames={rolesUsedElsewhere(value, index)}
          onRemove={readOnly ? undefined : () => removeBlock(index)}
          disabled={readOnly}
          withEndDate
          endsSoon={block.accessEndsSoon}
        />
      ))}
      {!readOnly && (
        <Group>
          <Button variant="light" onClick={addBlock} disabled={allRolesUsed}>
            Add new role
          </Button>
        </Group>
      )}
    </Stack>
  );
}
