/**
 * Review Pending User (001 §2.4, §4, §8): the registration and its role blocks, portal roles with description
 * and permissions, directory matches merged by uuid (linked ones disabled), 'Create User' (portal role
 * required, the chosen entry sent, the internal-domain warning and 'Create User Anyway',
 * PREEXISTING_AD_ACCOUNT_REQUIRED), reject and delete with their confirmations and list messages, and the
 * read-only view without WRITE_USERS, and 'Reload request' after a stale refusal keeping what the reviewer chose. The save itself is the shared review shell's (tested once there).
 */
import {
  APPROVAL_WARNING_KEY,
  GLOBAL_ERRORS,
  MESSAGES,
  REGISTRATION_ERRORS,
  REGISTRATION_MESSAGES,
  ReviewAttemptKeySchema,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reply, sequence } from '../../../testing/mockApi';
import { RELOADED_TEXT } from '../../shared/review/useReviewSave';

import { APPROVE, BY_EMAIL, DENY, GET, registration, renderReview } from './reviewRegistrationFixtures';
const DELETE = 'DELETE /rest/secure/user_registration/5';

describe('Review Pending User', () => {
  it('shows the registration, active portal roles and the merged directory matches', async () => {
    renderReview();
    expect(await screen.findByRole('heading', { name: 'Review Pending User', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('Investigator')).toBeInTheDocument();
    expect(screen.getByText('555-0100 ext. 12')).toBeInTheDocument();
    expect(await screen.findByText('Select all that apply')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /Reviewer/ })).toBeInTheDocument();
    expect(screen.getByText('READ_USERS, WRITE_USERS')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: /Retired Role/ })).toBeNull();
    // u-2 is found by both searches and listed once.
    await waitFor(() => expect(screen.getByTestId('ldap-search')).toHaveTextContent('3 matches'));
  });

  it('says it is searching the directory as a status while the search runs (WCAG: a loader is a status, not a bare span)', async () => {
    let answer: (r: Response) => void = () => undefined;
    renderReview({ [BY_EMAIL]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    expect(await screen.findByRole('status', { name: 'Searching the directory' })).toBeInTheDocument();
    answer(reply(200, []));
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Searching the directory' })).toBeNull());
  });

  it('Create User needs a portal role, then sends the chosen directory entry and returns with "User created"', async () => {
    const { user, sent } = renderReview({
      [APPROVE]: () => reply(200, registration({ registrationStatus: 'APPROVED' })),
    });
    await user.click(await screen.findByRole('button', { name: 'Create User' }));
    expect(await screen.findAllByText(REGISTRATION_MESSAGES.portalRoleRequired)).not.toHaveLength(0);
    expect(sent(APPROVE)).toHaveLength(0);

    await user.click(screen.getByRole('checkbox', { name: /Network User/ }));
    await waitFor(() => expect(screen.getByTestId('ldap-search')).toHaveTextContent('3 matches'));
    expect(screen.getByRole('radio', { name: 'Create a new directory account' })).toBeChecked();
    expect(screen.getByRole('radio', { name: /^ada2 - / })).toBeDisabled();
    expect(screen.getByText(/\(already linked to a portal user\)/)).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /^adal - / }));
    expect(screen.getByRole('textbox', { name: 'Username' })).toHaveValue('adal');
    expect(screen.getByRole('textbox', { name: 'Username' })).toHaveAttribute('readonly');

    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('Queue: User created')).toBeInTheDocument();
    const [body] = sent(APPROVE);
    expect(body).toMatchObject({
      registrationForm: { id: 5, versionno: 2 },
      portalRoleIds: [3],
      useExistingAuthAccount: true,
      existingAuthAccountUuid: 'u-3',
      username: 'adal',
    });
    expect(body!.attemptKey).toBeTruthy();
  });

  it('the internal-domain warning offers "Create User Anyway", sent with ignoreValidationWarnings=true', async () => {
    const { user, api } = renderReview({
      [APPROVE]: sequence(
        () =>
          reply(422, {
            fieldErrors: { [APPROVAL_WARNING_KEY]: [REGISTRATION_MESSAGES.internalDomainWarning] },
            globalErrors: [],
            message: 'Invalid',
          }),
        () => reply(200, registration({ registrationStatus: 'APPROVED' })),
      ),
    });
    await user.click(await screen.findByRole('checkbox', { name: /Network User/ }));
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText(REGISTRATION_MESSAGES.internalDomainWarning)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create User Anyway' }));
    expect(await screen.findByText('Queue: User created')).toBeInTheDocument();
    const calls = api.callsTo(APPROVE);
    expect(calls[0]!.search).toBe('');
    expect(calls[1]!.search).toBe('?ignoreValidationWarnings=true');
  });

  it('says an existing directory account is required (PREEXISTING_AD_ACCOUNT_REQUIRED)', async () => {
    const { user } = renderReview({
      [APPROVE]: () =>
        reply(422, {
          fieldErrors: {},
          globalErrors: [REGISTRATION_ERRORS.preexistingAccountRequired],
          message: 'Invalid',
        }),
    });
    await user.click(await screen.findByRole('checkbox', { name: /Network User/ }));
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText(REGISTRATION_MESSAGES.preexistingAccountRequired)).toBeInTheDocument();
    expect(screen.getByText(REGISTRATION_MESSAGES.approveIssueTitle)).toBeInTheDocument();
  });

  it('reject asks first (cannot be undone) and returns with "User Rejected"', async () => {
    const { user, sent } = renderReview({ [DENY]: () => reply(200, registration({ registrationStatus: 'DENIED' })) });
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Registration?' });
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Queue: User Rejected')).toBeInTheDocument();
    expect(sent(DENY)[0]!.registrationForm).toMatchObject({ id: 5, versionno: 2 });
  });

  it('delete asks first, says Deleted, and returns with "User Registration Deleted" after 750 ms', async () => {
    const { user, api } = renderReview({ [DELETE]: () => reply(200, registration({ registrationStatus: 'DELETED' })) });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Registration?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText(REGISTRATION_MESSAGES.deleted, { selector: '.mantine-Alert-message' }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/^Queue:/)).toBeNull();
    expect(await screen.findByText('Queue: User Registration Deleted')).toBeInTheDocument();
    expect(api.callsTo(DELETE)).toHaveLength(1);
    const query = new URLSearchParams(api.callsTo(DELETE)[0]!.search);
    expect(query.get('versionno')).toBe('2');
    expect(ReviewAttemptKeySchema.safeParse(query.get('attemptKey')).success).toBe(true);
  });

  it('delete answered 202 says it is still processing, and the retry carries the same attempt key', async () => {
    const { user, api } = renderReview({
      [DELETE]: sequence(
        () => reply(202, { status: 'PROCESSING', message: MESSAGES.access.reviewProcessing }),
        () => reply(200, registration({ registrationStatus: 'DELETED', versionno: 3 })),
      ),
    });
    const confirmDelete = async () => {
      await user.click(await screen.findByRole('button', { name: 'Delete' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete Registration?' });
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    };
    await confirmDelete();
    expect(await screen.findByText(MESSAGES.access.reviewProcessing)).toBeInTheDocument();
    expect(screen.queryByText(REGISTRATION_MESSAGES.deleted, { selector: '.mantine-Alert-message' })).toBeNull();
    await confirmDelete();
    expect(await screen.findByText('Queue: User Registration Deleted')).toBeInTheDocument();
    const keys = api.callsTo(DELETE).map((c) => new URLSearchParams(c.search).get('attemptKey'));
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('is read-only without WRITE_USERS, and a denied registration offers no actions', async () => {
    const viewer = renderReview({}, ['USER', 'READ_USERS']);
    expect(await screen.findByText(REGISTRATION_MESSAGES.noPermission)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create User' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).toBeNull();
    expect(screen.getByRole('checkbox', { name: /Network User/ })).toBeDisabled();
    viewer.unmount();

    renderReview({ [GET]: () => reply(200, registration({ registrationStatus: 'DENIED' })) });
    expect(await screen.findByText(/This registration is Denied and can no longer be changed/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reject' })).toBeNull();
  });

  it("a stale refusal's 'Reload request' keeps the reviewer's comments, ticket and portal roles", async () => {
    const stale = () => reply(422, { fieldErrors: {}, globalErrors: [GLOBAL_ERRORS.staleVersion], message: 'Stale' });
    const { user, api, sent } = renderReview({
      [GET]: sequence(
        () => reply(200, registration()),
        () => reply(200, registration({ versionno: 3, reviewerComments: 'theirs', jobTitle: 'Lead Analyst' })),
      ),
      [APPROVE]: sequence(stale, () => reply(200, registration({ registrationStatus: 'APPROVED' }))),
    });
    await user.click(await screen.findByRole('checkbox', { name: /Reviewer/ }));
    await user.type(screen.getByRole('textbox', { name: /Reviewer Comments/ }), 'mine');
    await user.type(screen.getByRole('textbox', { name: /External Ticket #/ }), 'SR-7');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    await user.click(await screen.findByRole('button', { name: 'Reload request' }));
    await waitFor(() => expect(api.callsTo(GET)).toHaveLength(2));

    expect(await screen.findByText(RELOADED_TEXT)).toBeInTheDocument();
    // The fresh version is shown, with the reviewer's own choices put back over it.
    expect(await screen.findByText('Lead Analyst')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Reviewer Comments/ })).toHaveValue('mine');
    expect(screen.getByRole('textbox', { name: /External Ticket #/ })).toHaveValue('SR-7');
    expect(screen.getByRole('checkbox', { name: /Reviewer/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Network User/ })).not.toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('Queue: User created')).toBeInTheDocument();
    expect(sent(APPROVE)[1]).toMatchObject({
      registrationForm: { id: 5, versionno: 3, reviewerComments: 'mine', sysaidTicket: 'SR-7' },
      portalRoleIds: [5],
    });
  });
});
