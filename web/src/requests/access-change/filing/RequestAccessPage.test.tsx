/**
 * Request New Access / Request Modified Access (001 §2.5, §4, §5) on mocked HTTP: LAO-site-study filtering in
 * both directions (000 §5), the server's field errors under their fields whatever the key spelling
 * (extendedQuestionAnswers, sites), REQUEST_IN_PROGRESS, the server's 304 shown as 'no changes', 'Remove Access'
 * with 'Delete Access?' sending a REMOVAL, an outstanding request that disables the form, and the system that
 * `?systemId=` preselects (issue 22: 'Request access to <system>' from a refused single sign-on).
 */
import {
  CreateAccessModRequestBodySchema,
  MESSAGES,
  type AccessModRequest,
  type Profile,
  type SiteRelation,
  type UserAccess,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply, type Handler } from '../../../testing/mockApi';
import { profileFixture } from '../../../testing/profileFixtures';
import { referenceHandlers } from '../../../testing/referenceFixtures';
import { renderRoute } from '../../../testing/render';
import { RequestAccessPage } from './RequestAccessPage';

const SUBMIT = 'POST /rest/secure/user_access_mod_request';
const PATH = '/app/profile/request-new-or-modified-access';

const profile: Profile = profileFixture();

const held: UserAccess = {
  id: 31,
  portalUserId: 7,
  entity: 'PortalUser',
  formId: null,
  roleName: 'Investigator',
  inactive: false,
  sites: [{ type: 'AO', siteCode: 'A200', otherIdentifier: null }],
  siteCodes: ['A200'],
  laoIds: [],
  studyNames: ['STUDY-1'],
  accessEndDate: null,
  accessEndsSoon: false,
  systemAccessIds: [1, 2],
  versionno: 1,
  priorAccessControlId: null,
  originalRevisionNumber: null,
  createdBy: 'seed',
  lastModifiedBy: 'seed',
  sysdat: '2026-01-01T00:00:00.000Z',
  dchng: '2026-01-01T00:00:00.000Z',
};

const relation = (id: number, lao: string, site: string, study: string): SiteRelation => ({
  id,
  active: true,
  dchng: '',
  sysdat: '',
  lao: { laoCode: lao },
  site: { siteCode: site },
  study: { study },
});

// LAO NLAO (site L100) runs STUDY-2; its affiliate A200 runs STUDY-1.
const relations = [relation(1, 'NLAO', 'L100', 'STUDY-2'), relation(2, 'NLAO', 'A200', 'STUDY-1')];

function renderPage(
  url: string,
  submit: Handler,
  { access = [held], openRequests = [] }: { access?: UserAccess[]; openRequests?: Partial<AccessModRequest>[] } = {},
) {
  const api = mockApi({
    ...referenceHandlers,
    'GET /rest/public/site_relation': () => reply(200, relations),
    'GET /rest/secure/user_profile': () => reply(200, profile),
    'GET /rest/secure/user_access/user': () => reply(200, { content: access }),
    'GET /rest/secure/user_access_mod_request/user': () => reply(200, { content: openRequests }),
    [SUBMIT]: submit,
  });
  const view = renderRoute({
    path: PATH,
    url,
    element: <RequestAccessPage />,
    otherRoutes: [{ path: '/app/profile', element: <p>Profile page</p> }],
  });
  return { ...view, api, sent: () => api.callsTo(SUBMIT).map((c) => CreateAccessModRequestBodySchema.parse(c.body)) };
}

type User = ReturnType<typeof renderPage>['user'];

const combobox = (label: RegExp) => screen.getAllByRole('combobox', { name: label })[0]!;

/** The option names a selector offers once opened (its own listbox, found through aria-controls). */
async function optionsOf(user: User, label: RegExp): Promise<string[]> {
  const input = combobox(label);
  await user.click(input);
  await waitFor(() => expect(input).toHaveAttribute('data-expanded', 'true'));
  const listbox = document.getElementById(input.getAttribute('aria-controls') ?? '');
  const names = listbox
    ? within(listbox)
        .queryAllByRole('option', { hidden: true })
        .map((o) => o.textContent ?? '')
    : [];
  await user.keyboard('{Escape}');
  return names;
}

async function pick(user: User, label: RegExp, option: string) {
  await user.click(combobox(label));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
  await user.keyboard('{Escape}');
}

describe('Request New Access / Request Modified Access', { timeout: 60_000 }, () => {
  it('filters sites by the chosen studies and studies by the chosen sites, and places the server errors', async () => {
    let answers = 0;
    const { user, sent } = renderPage(
      `${PATH}?accessRequestType=NEW&userId=7`,
      () =>
        ++answers === 1
          ? reply(422, {
              fieldErrors: {
                'extendedQuestionAnswers[0].sites': ['unknown'],
                'accessControls[0].studyNames': [MESSAGES.access.atLeastOneStudy],
              },
              globalErrors: [],
            })
          : reply(422, { fieldErrors: {}, globalErrors: ['REQUEST_IN_PROGRESS'] }),
      { access: [] },
    );
    await screen.findByRole('heading', { name: 'Request New Access' });
    await screen.findAllByRole('combobox', { name: /^Study Role/ });
    // A role allowing neither AOs nor LAOs disables both selectors.
    await pick(user, /^Study Role/, 'Data Manager');
    expect(combobox(/^LAOs/)).toBeDisabled();
    expect(combobox(/^AOs/)).toBeDisabled();
    await pick(user, /^Study Role/, 'Investigator');
    expect(combobox(/^LAOs/)).toBeEnabled();
    expect(await optionsOf(user, /^Studies/)).toEqual(['STUDY-1', 'STUDY-2']);
    await pick(user, /^Studies/, 'STUDY-2');
    // Studies to sites: only the LAO running STUDY-2 is offered; no AO runs it.
    expect(await optionsOf(user, /^LAOs/)).toEqual(['NLAO - North Lead']);
    expect(await optionsOf(user, /^AOs/)).toEqual([]);
    await pick(user, /^LAOs/, 'NLAO - North Lead');
    // Sites to studies: the LAO runs both (STUDY-2 is chosen already).
    expect(await optionsOf(user, /^Studies/)).toEqual(['STUDY-1']);

    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    // Keys renamed (extendedQuestionAnswers → the block, sites → AO/LAO) and shown under their fields.
    expect(await screen.findByText('AOs are unknown')).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.access.atLeastOneStudy)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.access.newRequestFailed);
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText(MESSAGES.access.requestInProgress)).toBeInTheDocument();
    expect(sent()[0]).toMatchObject({
      portalUserId: 7,
      requestType: 'NEW',
      accessControls: [
        { roleName: 'Investigator', laoIds: ['NLAO'], studyNames: ['STUDY-2'], systemAccessIds: [1, 2] },
      ],
    });
  });

  it("sends an unchanged CHANGE and shows the server's 304 as no changes, then requests removal", async () => {
    let answers = 0;
    const { user, sent } = renderPage(`${PATH}?accessRequestType=UPDATE&userId=7&existingUserAccessId=31`, () =>
      ++answers === 1 ? reply(304) : reply(200, { id: 5 }),
    );
    await screen.findByRole('heading', { name: 'Request Modified Access' });
    await screen.findAllByRole('combobox', { name: /^Study Role/ });
    // The held AO runs only STUDY-1, which is chosen: no other study is offered.
    expect(await optionsOf(user, /^Studies/)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText(MESSAGES.access.noChanges)).toBeInTheDocument();
    expect(sent()[0]).toMatchObject({ requestType: 'CHANGE', requesterComments: '' });

    await user.click(screen.getByRole('button', { name: 'Remove Access' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Access?' });
    expect(dialog).toHaveTextContent('Are you sure you want to request removal of this access?');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Profile page')).toBeInTheDocument();
    expect(sent()[1]).toMatchObject({
      requestType: 'REMOVAL',
      accessControls: [{ roleName: 'Investigator', siteCodes: ['A200'], studyNames: ['STUDY-1'] }],
    });
  });

  it('asks for an extension: the held end date prefilled, a later one sent with the CHANGE (issue 25)', async () => {
    const { user, sent } = renderPage(
      `${PATH}?accessRequestType=UPDATE&userId=7&existingUserAccessId=31`,
      () => reply(200, { id: 5 }),
      { access: [{ ...held, accessEndDate: '2027-03-01', accessEndsSoon: true }] },
    );
    const field = await screen.findByLabelText(/^Access end date/);
    expect(field).toHaveValue('2027-03-01');
    await user.clear(field);
    await user.type(field, '2027-09-30');
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]).toMatchObject({
      requestType: 'CHANGE',
      accessControls: [{ roleName: 'Investigator', accessEndDate: '2027-09-30' }],
    });
  });

  it('preselects the system named by ?systemId= and keeps it when a study role is chosen (issue 22)', async () => {
    const { user, sent } = renderPage(`${PATH}?accessRequestType=NEW&systemId=2`, () => reply(200, { id: 5 }), {
      access: [],
    });
    const system = await screen.findByRole('checkbox', { name: 'Study Data Capture' });
    expect(system).toBeChecked();
    // 'Data Manager' requests no system by default: choosing it keeps the preselected one.
    await pick(user, /^Study Role/, 'Data Manager');
    expect(screen.getByRole('checkbox', { name: 'Study Data Capture' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]).toMatchObject({ accessControls: [{ roleName: 'Data Manager', systemAccessIds: [1, 2] }] });
  });

  it('ignores a ?systemId= that names no known system', async () => {
    renderPage(`${PATH}?accessRequestType=NEW&systemId=99`, () => reply(200, {}), { access: [] });
    expect(await screen.findByRole('checkbox', { name: 'Study Data Capture' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Portal Gateway/ })).toBeChecked();
  });

  it('warns about an outstanding request for the study role and disables the form', async () => {
    const { api } = renderPage(
      `${PATH}?accessRequestType=UPDATE&userId=7&existingUserAccessId=31`,
      () => reply(200, {}),
      {
        openRequests: [{ id: 9, requestStatus: 'IN_PROGRESS', accessControls: [{ ...held, questionNum: 1 }] }],
      },
    );
    expect(await screen.findByText(/An outstanding request already covers the study role Investigator/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Submit Request' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove Access' })).toBeDisabled();
    await waitFor(() => expect(api.callsTo(SUBMIT)).toHaveLength(0));
  });
});
