/**
 * The User Support review of a request with approval stages: the stages panel and the open stage under the
 * status; approving while stages are open asks for the 'Override justification' and sends it as
 * `approvalOverride`; the API's 422 'stagesOpen' is shown at the status.
 */
import { APPROVAL_TEXTS } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { approvalView } from '../../../testing/approvalFixtures';
import { reply } from '../../../testing/mockApi';
import { GET, SAVE, renderReview, request } from '../../shared/review/reviewAccessChangeFixtures';

const staged = () =>
  reply(200, request({ requestStatus: 'PENDING_REVIEW', approval: approvalView({ mayDecide: false }) }));

async function chooseApproved(user: ReturnType<typeof renderReview>['user']) {
  await user.click(await screen.findByRole('combobox', { name: 'Request Status' }));
  await user.click(await screen.findByRole('option', { name: 'Approved', hidden: true }));
}

describe('review with approval stages', { timeout: 60_000 }, () => {
  it('shows the stages; approving needs the override justification, sent as approvalOverride', async () => {
    const { user, api } = renderReview({
      [GET]: staged,
      [SAVE]: () => reply(200, request({ requestStatus: 'APPROVED' })),
    });
    const stages = await screen.findByRole('region', { name: 'Approval stages' });
    expect(within(stages).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getAllByText('Stage 1 of 2: LAO staff').length).toBeGreaterThan(0);
    expect(screen.queryByRole('textbox', { name: APPROVAL_TEXTS.overrideLabel })).toBeNull();

    await chooseApproved(user);
    const override = await screen.findByRole('textbox', { name: new RegExp(APPROVAL_TEXTS.overrideLabel) });
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(`${APPROVAL_TEXTS.overrideLabel} is required`)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.type(override, 'The LAO confirmed by phone');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Request Finalization/Closure' });
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(api.callsTo(SAVE)).toHaveLength(1));
    expect(api.callsTo(SAVE)[0]!.body).toMatchObject({ approvalOverride: 'The LAO confirmed by phone' });
  });

  it("shows the API's 'stagesOpen' at the status", async () => {
    const { user } = renderReview({
      [GET]: staged,
      [SAVE]: () =>
        reply(422, {
          fieldErrors: { 'userAccessModificationRequest.requestStatus': ['stagesOpen'] },
          globalErrors: [APPROVAL_TEXTS.stagesOpen],
        }),
    });
    await chooseApproved(user);
    await user.type(await screen.findByRole('textbox', { name: new RegExp(APPROVAL_TEXTS.overrideLabel) }), 'x');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }));
    const status = screen.getByRole('combobox', { name: 'Request Status' });
    await waitFor(() => expect(status).toHaveAttribute('aria-invalid', 'true'));
    expect(status).toHaveAccessibleDescription(expect.stringContaining(APPROVAL_TEXTS.stagesOpen));
  });

  it('a request without stages: no panel, no override', async () => {
    const { user } = renderReview({});
    await chooseApproved(user);
    expect(screen.queryByRole('region', { name: 'Approval stages' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: new RegExp(APPROVAL_TEXTS.overrideLabel) })).toBeNull();
  });
});
