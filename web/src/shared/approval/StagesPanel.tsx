import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  APPROVAL_TEXTS,
  APPROVER_GROUP_LABELS,
  type OpenStage,
  type RequestApprovalView,
  type RequestStageView,
} from '@portal/contract';
import { formatDateTime } from '../format';

/**
 * A request's approval stages (approval policies), shared by the stage decision page, the User Support review
 * screen and the requester's Requests History: the panel lists every stage, `OpenStageLine` is the one line
 * under the request's status while a stage is open ('Stage 1 of 2: LAO staff').
 */

const STATE_LABELS: Record<RequestStageView['state'], string> = {
  WAITING: 'Waiting',
  OPEN: 'Open',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  CLOSED: 'Closed',
};
const STATE_COLORS: Record<RequestStageView['state'], string> = {
  WAITING: 'gray',
  OPEN: 'blue',
  APPROVED: 'green',
  REJECTED: 'red',
  CLOSED: 'gray',
};

/** True when an open stage's deadline has passed (`now` for tests). */
export function isOverdue(deadlineAt: string | null, now: number = Date.now()): boolean {
  return !!deadlineAt && new Date(deadlineAt).getTime() < now;
}

/** The open stage of `approval` (its number, the plan's size, the group deciding it), null when none is open. */
export function openStageOf(approval: RequestApprovalView | null | undefined): OpenStage | null {
  if (!approval?.currentStage) return null;
  const stage = approval.stages.find((s) => s.stage === approval.currentStage);
  return stage ? { stage: stage.stage, stages: approval.stages.length, group: stage.group } : null;
}

/** 'Stage 1 of 2: LAO staff'. */
export const stageLineText = (open: OpenStage): string =>
  `${APPROVAL_TEXTS.stageOf(open.stage, open.stages)}: ${APPROVER_GROUP_LABELS[open.group]}`;

/** 'Stage 1 of 2: LAO staff' for the open stage, null when none is open. */
export function openStageText(approval: RequestApprovalView | null | undefined): string | null {
  const open = openStageOf(approval);
  return open ? stageLineText(open) : null;
}

/**
 * The open stage as a small line under a request's status, from the request's `approval` (its view) or, in a
 * list row that carries only the open stage, from `stage`; nothing when no stage is open.
 */
export function OpenStageLine({
  approval,
  stage,
}: {
  approval?: RequestApprovalView | null;
  stage?: OpenStage | null;
}) {
  const open = stage ?? openStageOf(approval);
  if (!open) return null;
  return (
    <Text size="xs" c="dimmed" mt={4}>
      {stageLineText(open)}
    </Text>
  );
}

/** A stage's deadline, with 'Overdue' while it is open past it. */
export function StageDeadline({ deadlineAt, open }: { deadlineAt: string | null; open: boolean }) {
  if (!deadlineAt) return <>{formatDateTime(deadlineAt)}</>;
  return (
    <Group gap={6} component="span" wrap="nowrap" display="inline-flex">
      <span>{formatDateTime(deadlineAt)}</span>
      {open && isOverdue(deadlineAt) && (
        <Badge color="red" variant="light" size="sm" tt="none">
          {APPROVAL_TEXTS.overdue}
        </Badge>
      )}
    </Group>
  );
}

function StageItem({ stage, total }: { stage: RequestStageView; total: number }) {
  const open = stage.state === 'OPEN';
  return (
    <Paper component="li" withBorder p="sm" aria-current={open ? 'step' : undefined}>
      <Stack gap={4}>
        <Group gap="sm" wrap="wrap">
          <Text fw={600} size="sm">
            {APPROVAL_TEXTS.stageOf(stage.stage, total)}: {APPROVER_GROUP_LABELS[stage.group]}
          </Text>
          <Badge color={STATE_COLORS[stage.state]} variant="light" tt="none">
            {STATE_LABELS[stage.state]}
          </Badge>
          {stage.escalatedAt && (
            <Badge color="orange" variant="light" tt="none">
              Escalated from {APPROVER_GROUP_LABELS[stage.approvers]}
            </Badge>
          )}
        </Group>
        {stage.deadlineAt && (
          <Text size="sm">
            Deadline: <StageDeadline deadlineAt={stage.deadlineAt} open={open} />
          </Text>
        )}
        {stage.decidedAt && (
          <Text size="sm">
            {stage.state === 'REJECTED' ? 'Rejected' : 'Decided'} by {stage.decidedBy ?? 'unknown'} on{' '}
            {formatDateTime(stage.decidedAt)}
          </Text>
        )}
        {stage.comment && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            Comment: {stage.comment}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** The request's approval stages in order: group, state, deadline, who decided and their comment. */
export function StagesPanel({ approval }: { approval: RequestApprovalView }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="approval-stages-heading">
      <Title order={2} mb="sm" id="approval-stages-heading">
        Approval stages
      </Title>
      <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
        {approval.stages.map((s) => (
          <StageItem key={s.stage} stage={s} total={approval.stages.length} />
        ))}
      </Stack>
    </Paper>
  );
}
