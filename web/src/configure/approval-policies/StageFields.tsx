import { Button, Fieldset, Group, NumberInput, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  APPROVAL_LIMITS,
  APPROVAL_TEXTS,
  APPROVER_GROUP_LABELS,
  APPROVER_GROUPS,
  STAGE_APPROVERS,
  type StageApprovers,
} from '@portal/contract';
import { NEW_STAGE, type PolicyValues } from './policyForm';

const APPROVER_OPTIONS = STAGE_APPROVERS.map((g) => ({ value: g, label: APPROVER_GROUP_LABELS[g] }));

/**
 * A policy's stages in order (LAO staff before study approvers, each group once): per stage who approves,
 * the deadline and the reminder in working days and the group it escalates to; 'Add stage' adds the group
 * not used yet, 'Remove stage' drops one (a policy keeps one stage at least); both name the stage.
 */
export function StageFields({ form }: { form: UseFormReturnType<PolicyValues> }) {
  const { stages } = form.values;
  const unused = STAGE_APPROVERS.filter((g) => !stages.some((s) => s.approvers === g));
  const stagesError = form.errors.stages;
  return (
    <Stack gap="sm">
      <Text fw={500} size="sm" id="stages-label">
        Stages
      </Text>
      {stagesError && (
        <Text c="red" size="sm" role="alert">
          {stagesError}
        </Text>
      )}
      {stages.map((stage, i) => {
        const total = stages.length;
        const escalateOptions = APPROVER_GROUPS.filter((g) => g !== stage.approvers).map((g) => ({
          value: g,
          label: APPROVER_GROUP_LABELS[g],
        }));
        return (
          <Fieldset key={`${i}-${stage.approvers}`} legend={APPROVAL_TEXTS.stageOf(i + 1, total)}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <Select
                label="Approvers"
                data={APPROVER_OPTIONS}
                allowDeselect={false}
                required
                {...form.getInputProps(`stages.${i}.approvers`)}
                onChange={(v) => {
                  if (!v) return;
                  form.setFieldValue(`stages.${i}.approvers`, v as StageApprovers);
                  if (stage.escalateTo === v) form.setFieldValue(`stages.${i}.escalateTo`, 'USER_SUPPORT');
                }}
              />
              <Select
                label="Escalate to"
                description="Who may decide the stage once its deadline has passed."
                data={escalateOptions}
                allowDeselect={false}
                required
                {...form.getInputProps(`stages.${i}.escalateTo`)}
              />
              <NumberInput
                label="Deadline (working days)"
                description="Working days from the stage's opening."
                min={APPROVAL_LIMITS.deadlineDays.min}
                max={APPROVAL_LIMITS.deadlineDays.max}
                allowDecimal={false}
                allowNegative={false}
                required
                {...form.getInputProps(`stages.${i}.deadlineDays`)}
              />
              <NumberInput
                label="Reminder (working days before the deadline)"
                description="0: no reminder."
                min={APPROVAL_LIMITS.reminderDays.min}
                max={APPROVAL_LIMITS.reminderDays.max}
                allowDecimal={false}
                allowNegative={false}
                required
                {...form.getInputProps(`stages.${i}.reminderDays`)}
              />
            </SimpleGrid>
            {total > 1 && (
              <Group mt="sm">
                <Button
                  variant="subtle"
                  color="red"
                  size="compact-sm"
                  onClick={() => form.removeListItem('stages', i)}
                  // Which stage, for a screen reader going from button to button (the legend is not read with it).
                  aria-label={`Remove stage ${i + 1} (${APPROVER_GROUP_LABELS[stage.approvers]})`}
                >
                  Remove stage
                </Button>
              </Group>
            )}
          </Fieldset>
        );
      })}
      {unused[0] && <AddStageButton form={form} group={unused[0]} />}
    </Stack>
  );
}

/**
 * Adds the `group` stage where it runs (LAO staff before study approvers), its name saying which stage it
 * becomes ('Add stage 2 (Study approvers)').
 */
function AddStageButton({ form, group }: { form: UseFormReturnType<PolicyValues>; group: StageApprovers }) {
  const first = group === 'LAO_STAFF';
  const position = first ? 1 : form.values.stages.length + 1;
  return (
    <Group>
      <Button
        variant="outline"
        onClick={() => form.insertListItem('stages', { ...NEW_STAGE[group] }, first ? 0 : undefined)}
      >
        Add stage {position} ({APPROVER_GROUP_LABELS[group]})
      </Button>
    </Group>
  );
}
