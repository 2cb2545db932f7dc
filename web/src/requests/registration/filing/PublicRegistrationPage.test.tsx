/**
 * The public registration form (001 §2.1, §5): the banner and 'Sign in', client checks with the spec's texts,
 * the captcha answer sent as `g-recaptcha-response`, comments trimmed on blur, the confirmation with the review
 * time, the server's 422 keys (prefixed, extendedQuestionAnswers, another captcha spelling) under their fields,
 * and the role-block rules ('Add new role', a role used once, errors re-indexed when a block goes).
 * The ALTCHA widget needs web workers that jsdom lacks; it is replaced by a button that yields a payload (the
 * browser journeys solve the real one).
 */
import { PublicRegistrationBodySchema, REGISTRATION_MESSAGES } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, reply, type Handler } from '../../../testing/mockApi';
import { referenceHandlers } from '../../../testing/referenceFixtures';
import { renderRoute } from '../../../testing/render';
import { PublicRegistrationPage } from './PublicRegistrationPage';

vi.mock('./Captcha', () => ({
  Captcha: ({ onChange, error }: { onChange: (payload: string | null) => void; error?: string }) => (
    <div>
      <button type="button" onClick={() => onChange('solved-payload')}>
        Solve captcha
      </button>
      {error && <p>{error}</p>}
    </div>
  ),
}));

const SUBMIT = 'POST /rest/public/user_registration';

function renderForm(submit: Handler = () => reply(201, { id: 1 })) {
  const api = mockApi({ ...referenceHandlers, [SUBMIT]: submit });
  const view = renderRoute({ path: '/register', url: '/register', element: <PublicRegistrationPage /> });
  return { ...view, api, sent: () => api.callsTo(SUBMIT).map((c) => PublicRegistrationBodySchema.parse(c.body)) };
}

type User = ReturnType<typeof renderForm>['user'];

async function pickOption(user: User, label: string, option: string) {
  await user.click(screen.getAllByRole('combobox', { name: new RegExp(`^${label}`) })[0]!);
  // Mantine's dropdown is still in its opening transition (display: none) in jsdom.
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

/** Pastes instead of typing: every keystroke re-renders the whole form, which is slow in jsdom. */
async function fill(user: User, name: RegExp, text: string) {
  await user.click(await screen.findByRole('textbox', { name }));
  await user.paste(text);
}

async function fillPerson(user: User) {
  await fill(user, /^First Name/, 'Ada');
  await fill(user, /^Last Name/, 'Lovelace');
  await fill(user, /^Job Title/, 'Analyst');
  await fill(user, /^Organization Name/, 'North Lead');
  await fill(user, /^Phone Number/, '555-0100');
  await fill(user, /^Email Address/, 'ada@example.org');
}

// A large form: jsdom needs more than the default 20 s per journey when both cores are busy.
describe('public registration form', { timeout: 60_000 }, () => {
  it('says it is public, links to sign-in, and checks fields and the captcha before sending', async () => {
    const { user, api } = renderForm();
    expect(await screen.findByText(/public, non-authenticated user/)).toHaveTextContent('1-3 business days');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/');

    await user.click(await screen.findByRole('button', { name: 'Submit Registration' }));
    expect(await screen.findByText('First Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email Address is required')).toBeInTheDocument();
    expect(screen.getByText('Study Role is required')).toBeInTheDocument();
    expect(screen.getByText(REGISTRATION_MESSAGES.captchaRequired)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(REGISTRATION_MESSAGES.fieldsHaveErrors);
    expect(api.callsTo(SUBMIT)).toHaveLength(0);

    await fill(user, /^Email Address/, 'not-an-address');
    await fill(user, /^Phone Number/, 'call me');
    await pickOption(user, 'Study Role', 'Investigator');
    await user.click(screen.getByRole('button', { name: 'Submit Registration' }));
    expect(await screen.findByText('Email Address is invalid')).toBeInTheDocument();
    expect(screen.getByText('Phone Number is invalid')).toBeInTheDocument();
    expect(screen.getByText('At least one AO or LAO is required')).toBeInTheDocument();
    expect(screen.getByText('At least one study is required')).toBeInTheDocument();
  });

  it('sends the registration with the captcha answer and shows the confirmation', async () => {
    const { user, sent } = renderForm();
    await fillPerson(user);
    await pickOption(user, 'Study Role', 'Data Manager');
    const comments = screen.getByRole('textbox', { name: /^Comments/ });
    await user.click(comments);
    await user.paste('  for the spring study  ');
    await user.tab();
    expect(comments).toHaveValue('for the spring study');
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(screen.getByRole('button', { name: 'Submit Registration' }));

    const confirmation = await screen.findByTestId('registration-submitted');
    expect(confirmation).toHaveTextContent(REGISTRATION_MESSAGES.submitted);
    expect(confirmation).toHaveTextContent('1-3 business days');
    expect(confirmation).toHaveTextContent('ada@example.org');
    const [body] = sent();
    expect(body).toMatchObject({
      firstName: 'Ada',
      email: 'ada@example.org',
      'g-recaptcha-response': 'solved-payload',
      requesterComments: 'for the spring study',
      accessControls: [{ questionNum: 1, roleName: 'Data Manager', systemAccessIds: [1] }],
    });
  });

  it('shows the server field errors under their fields, whatever the key spelling', async () => {
    const { user } = renderForm(() =>
      reply(422, {
        fieldErrors: {
          'registrationForm.email': ['validEmail'],
          'extendedQuestionAnswers[0].studyNames': ['required'],
          gRecaptchaResponse: ['required'],
          somethingElse: ['A sentence the form has no field for.'],
        },
        globalErrors: [],
        message: 'Invalid',
      }),
    );
    await fillPerson(user);
    await pickOption(user, 'Study Role', 'Data Manager');
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(screen.getByRole('button', { name: 'Submit Registration' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(REGISTRATION_MESSAGES.submissionFailed);
    expect(alert).toHaveTextContent('A sentence the form has no field for.');
    expect(screen.getByText('Email Address is invalid')).toBeInTheDocument();
    expect(screen.getByText('Studies are required')).toBeInTheDocument();
    expect(screen.getByText(REGISTRATION_MESSAGES.captchaRequired)).toBeInTheDocument();
  });

  it('adds role blocks, offers each study role once, and moves errors up when a block is removed', async () => {
    const { user } = renderForm(() =>
      reply(422, {
        fieldErrors: { 'accessControls[1].roleName': ['unknown'] },
        globalErrors: [],
        message: 'Invalid',
      }),
    );
    await fillPerson(user);
    await pickOption(user, 'Study Role', 'Investigator');
    await pickOption(user, 'LAOs', 'NLAO - North Lead');
    await pickOption(user, 'Studies', 'STUDY-1');
    await user.click(screen.getByRole('button', { name: 'Add new role' }));
    expect(screen.getByText('Role #2')).toBeInTheDocument();

    const second = screen.getAllByRole('combobox', { name: /^Study Role/ })[1]!;
    await user.click(second);
    await waitFor(() => expect(second).toHaveAttribute('aria-controls'));
    const listbox = document.getElementById(second.getAttribute('aria-controls')!)!;
    expect(within(listbox).queryByRole('option', { name: 'Investigator', hidden: true })).toBeNull();
    await user.click(within(listbox).getByRole('option', { name: 'Data Manager', hidden: true }));
    // Every role is used: no third block.
    expect(screen.getByRole('button', { name: 'Add new role' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(screen.getByRole('button', { name: 'Submit Registration' }));
    expect(await screen.findByText('Study Role is unknown')).toBeInTheDocument();

    // Removing block 1 moves block 2's error to the block now first.
    await user.click(screen.getAllByRole('button', { name: 'Remove role' })[0]!);
    await waitFor(() => expect(screen.queryByText('Role #2')).toBeNull());
    expect(screen.getByText('Study Role is unknown')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: /^Study Role/ })).toHaveValue('Data Manager');
  });
});
