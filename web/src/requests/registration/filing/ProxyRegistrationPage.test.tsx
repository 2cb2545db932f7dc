/**
 * 'Request a User' (001 §2.2): the requester banner from the profile (read-only), no captcha, the person
 * completing the form sent with the registration, and after a submit 'Submit A Similar Request' (the
 * non-personal data kept) and 'Submit New Request' (blank).
 */
import { ProxyRegistrationBodySchema, REGISTRATION_MESSAGES, type Profile } from '@portal/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply } from '../../../testing/mockApi';
import { laoStaff, profileFixture } from '../../../testing/profileFixtures';
import { referenceHandlers } from '../../../testing/referenceFixtures';
import { renderRoute } from '../../../testing/render';
import { ProxyRegistrationPage } from './ProxyRegistrationPage';

const SUBMIT = 'POST /rest/secure/user_registration';

const profile: Profile = profileFixture({
  ...laoStaff,
  organizationName: 'North Lead',
  jobTitle: 'Coordinator',
  phoneNumber: '555-0140',
  phoneExtension: '42',
});

function renderProxy() {
  const api = mockApi({
    ...referenceHandlers,
    'GET /rest/secure/user_profile': () => reply(200, profile),
    [SUBMIT]: () => reply(201, { id: 9 }),
  });
  const view = renderRoute({
    path: '/app/proxy-registration',
    url: '/app/proxy-registration',
    element: <ProxyRegistrationPage />,
  });
  return { ...view, sent: () => api.callsTo(SUBMIT).map((c) => ProxyRegistrationBodySchema.parse(c.body)) };
}

const box = (name: RegExp, index = 0) => screen.getAllByRole('textbox', { name })[index]!;
/** A Select (Mantine gives its input the combobox role). */
const combobox = (name: RegExp) => screen.getAllByRole('combobox', { name })[0]!;

describe("proxy registration 'Request a User'", () => {
  // A long journey through a large form (two filings): jsdom needs more than the default 20 s on two cores.
  it('files for someone else, then offers a similar request and a new one', { timeout: 90_000 }, async () => {
    const { user, sent } = renderProxy();
    // Pasting instead of typing: every keystroke re-renders the whole form, which is slow in jsdom.
    const fill = async (input: HTMLElement, text: string) => {
      await user.click(input);
      await user.paste(text);
    };
    expect(await screen.findByRole('textbox', { name: 'Requester Name' })).toHaveValue('Lea Staff');
    expect(screen.getByRole('textbox', { name: 'Requester Email' })).toHaveAttribute('readonly');
    expect(screen.getByRole('textbox', { name: 'Requester Phone Extension' })).toHaveValue('42');
    expect(screen.queryByRole('button', { name: 'Solve captcha' })).toBeNull();
    expect(screen.queryByText('Verification')).toBeNull();

    await fill(box(/^First Name/), 'Grace');
    await fill(box(/^Last Name/), 'Hopper');
    await fill(box(/^Job Title/), 'Engineer');
    await fill(box(/^Organization Name/), 'East Clinic');
    await fill(box(/^Phone Number/), '555-0200');
    await fill(box(/^Email Address/), 'grace@example.org');
    await user.click(combobox(/^Study Role/));
    await user.click(await screen.findByRole('option', { name: 'Data Manager', hidden: true }));
    await fill(box(/^Full Name/), 'Lea Staff');
    await fill(box(/^Email Address/, 1), 'lea@portal.test');
    await user.click(screen.getByRole('button', { name: 'Submit Registration' }));

    expect(await screen.findByTestId('registration-submitted')).toHaveTextContent(REGISTRATION_MESSAGES.submitted);
    expect(sent()[0]).toMatchObject({
      firstName: 'Grace',
      email: 'grace@example.org',
      personCompletingThisFormFullName: 'Lea Staff',
      personCompletingThisFormEmail: 'lea@portal.test',
      accessControls: [{ roleName: 'Data Manager' }],
    });

    await user.click(screen.getByRole('button', { name: 'Submit A Similar Request' }));
    expect(await screen.findByRole('textbox', { name: /^First Name/ })).toHaveValue('');
    expect(box(/^Email Address/)).toHaveValue('');
    expect(box(/^Organization Name/)).toHaveValue('East Clinic');
    expect(combobox(/^Study Role/)).toHaveValue('Data Manager');
    expect(box(/^Full Name/)).toHaveValue('Lea Staff');

    await fill(box(/^First Name/), 'Alan');
    await fill(box(/^Last Name/), 'Turing');
    await fill(box(/^Job Title/), 'Engineer');
    await fill(box(/^Phone Number/), '555-0300');
    await fill(box(/^Email Address/), 'alan@example.org');
    await user.click(screen.getByRole('button', { name: 'Submit Registration' }));
    await user.click(await screen.findByRole('button', { name: 'Submit New Request' }));
    expect(await screen.findByRole('textbox', { name: /^Organization Name/ })).toHaveValue('');
    expect(combobox(/^Study Role/)).toHaveValue('');
    expect(sent()).toHaveLength(2);
    expect(sent()[1]).toMatchObject({ firstName: 'Alan', organizationName: 'East Clinic' });
  });
});
