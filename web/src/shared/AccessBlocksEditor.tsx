import { Button, Group, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { relationIndex, type RelationIndex, type StudyRole, type System } from '@portal/contract';
import { useMemo } from 'react';
import type { AccessBlock } from './accessBlocks';
import { RoleBlock } from './RoleBlock';
import { blockErrors, emptyBlock, nextQuestionNum, reindexBlockErrors, rolesUsedElsewhere } from './roleBlockForm';
import {
  siteOptions,
  useSiteRelations,
  useSites,
  useStudies,
  useStudyRoles,
  useSystems,
  type SiteOptions,
} from './referenceData';

/** What the role blocks need: study roles, site options, study names, systems and the LAO-site-study relations. */
export interface AccessReference {
  studyRoles: StudyRole[];
  sites: SiteOptions;
  studyNames: string[];
  systems: System[];
  relations: RelationIndex | null;
}

/**
 * Loads the reference data of the role blocks. @returns the data once all of it is there (the relations only
 * narrow options, so they may be missing), whether a load failed, and a retry.
 */
export function useAccessReference(): { data: AccessReference | null; failed: boolean; retry: () => void } {
  const studyRoles = useStudyRoles();
  const sites = useSites();
  const studies = useStudies();
  const systems = useSystems();
  const relations = useSiteRelations();
  const options = useMemo(() => siteOptions(sites.data ?? []), [sites.data]);
  const studyNames = useMemo(() => (studies.data ?? []).map((s) => s.study), [studies.data]);
  const index = useMemo(() => (relations.data ? relationIndex(relations.data) : null), [relations.data]);
  const all = [studyRoles, sites, studies, systems];
  const data =
    studyRoles.data && sites.data && studies.data && systems.data
      ? { studyRoles: studyRoles.data, sites: options, studyNames, systems: systems.data, relations: index }
      : null;
  return {
    data,
    failed: all.some((q) => q.isError),
    retry: () => all.forEach((q) => void q.refetch()),
  };
}

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
  reference: AccessReference;
  readOnly: boolean;
  emptyText?: string;
}) {
  const { studyRoles, systems } = reference;
  const value = form.values.accessControls;
  const errors = form.errors;
  // Mantine cannot resolve the path's type on a generic form; V's `accessControls` is AccessBlock[] by its bound.
  const onChange = (blocks: AccessBlock[]) =>
    form.setFieldValue('accessControls', blocks as Parameters<typeof form.setFieldValue<'accessControls'>>[1]);
  const onErrorsChange = (next: Record<string, unknown>) => form.setErrors(next as Record<string, string>);
  const setBlock = (index: number, next: AccessBlock) => {
    onChange(value.map((b, i) => (i === index ? next : b)));
    const rest = { ...errors };
    for (const field of ['roleName', 'sites', 'studyNames', 'systemAccessIds']) {
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
