/** The approval stages: the open-stage line under a status, 'Overdue' past an open stage's deadline, the panel's stages. */
import { APPROVAL_TEXTS } from '@portal/contract';
import { render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { approvalView, stageFixture } from '../../testing/approvalFixtures';
import { isOverdue, openStageText, StageDeadline, StagesPanel } from './StagesPanel';

const wrap = (ui: ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);

describe('approval stages', () => {
  it('names the open stage and its group, nothing when none is open', () => {
    expect(openStageText(approvalView())).toBe('Stage 1 of 2: LAO staff');
    expect(openStageText(approvalView({ currentStage: null }))).toBeNull();
    expect(openStageText(null)).toBeNull();
    // An escalated stage names who decides it now.
    const escalated = approvalView({ stages: [stageFixture({ group: 'USER_SUPPORT' })] });
    expect(openStageText(escalated)).toBe('Stage 1 of 1: User Support');
  });

  it('marks an open stage past its deadline overdue', () => {
    expect(isOverdue('2026-01-01T00:00:00Z', Date.parse('2026-01-02T00:00:00Z'))).toBe(true);
    expect(isOverdue('2026-01-03T00:00:00Z', Date.parse('2026-01-02T00:00:00Z'))).toBe(false);
    wrap(<StageDeadline deadlineAt="2020-01-01T00:00:00Z" open />);
    expect(screen.getByText(APPROVAL_TEXTS.overdue)).toBeInTheDocument();
  });

  it('lists the stages with who decided and their comment', () => {
    const view = approvalView({
      currentStage: 2,
      stages: [
        stageFixture({ state: 'APPROVED', decidedAt: '2026-01-03T10:00:00Z', decidedBy: 'laostaff', comment: 'ok' }),
        stageFixture({ stage: 2, approvers: 'STUDY_APPROVERS', group: 'STUDY_APPROVERS' }),
      ],
    });
    wrap(<StagesPanel approval={view} />);
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Stage 1 of 2: LAO staff');
    expect(items[0]).toHaveTextContent('Decided by laostaff');
    expect(items[0]).toHaveTextContent('Comment: ok');
    expect(items[1]).toHaveTextContent('Stage 2 of 2: Study approvers');
    expect(items[1]).toHaveAttribute('aria-current', 'step');
  });
});
