import type {
  ProvisioningConnection,
  ReconciliationReport,
  ReconciliationSummary,
  SystemDetail,
} from '@portal/contract';
import { mockApi, reply, type Handler } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { SystemPage } from '../SystemPage';

/**
 * What the provisioning section's tests (issue 41) share: a system, its connection, a run and its report, and the
 * system's page rendered with the single sign-on section beside it answering none.
 */
export const SYSTEM = '/rest/secure/system_mgmt/system_access/5';
export const PROV = `${SYSTEM}/provisioning`;
export const system: SystemDetail = {
  id: 5,
  systemName: 'LIS',
  description: '',
  inactive: false,
  sort: 1,
  fixed: false,
};

export const run: ReconciliationSummary = {
  id: 31,
  systemAccessId: 5,
  status: 'DONE',
  startedAt: '2026-11-26T03:00:00.000Z',
  finishedAt: '2026-11-26T03:01:00.000Z',
  requestedBy: 'admin',
  targetAccounts: 12,
  portalAccounts: 11,
  orphans: 1,
  missing: 1,
  drifted: 1,
  error: null,
};

export const report: ReconciliationReport = {
  ...run,
  differences: [
    {
      kind: 'ORPHAN',
      externalId: 'ghost-1',
      userName: 'ghost',
      targetId: 't-1',
      portalUserId: null,
      detail: 'No portal user has this externalId',
    },
    {
      kind: 'MISSING',
      externalId: 'u-7',
      userName: 'casey',
      targetId: null,
      portalUserId: 7,
      detail: 'Not at the target',
    },
    {
      kind: 'DRIFTED',
      externalId: 'u-8',
      userName: 'robin',
      targetId: 't-8',
      portalUserId: 8,
      detail: 'emails: robin@old.test instead of robin@portal.test',
    },
  ],
};

export const connection = (patch: Partial<ProvisioningConnection> = {}): ProvisioningConnection => ({
  systemAccessId: 5,
  baseUrl: 'https://lis.example.org/scim/v2',
  hasToken: true,
  enabled: true,
  accessAs: 'EXTENSION',
  deleteOnRemoval: false,
  retryDays: 7,
  reconcileEveryMinutes: 1440,
  lastTestAt: null,
  lastTestOk: null,
  lastTestMessage: null,
  accounts: { pending: 2, inSync: 9, error: 1 },
  lastReconciliation: run,
  createdAt: '2026-11-26T02:00:00.000Z',
  updatedAt: '2026-11-26T02:00:00.000Z',
  ...patch,
});

/** The system's page with `handlers`; the past runs list answers one page with `run`. */
export function renderProvisioning(
  handlers: Record<string, Handler>,
  permissions: ('ADMIN' | 'READ_USERS')[] = ['ADMIN', 'READ_USERS'],
) {
  const api = mockApi({
    [`GET ${SYSTEM}`]: () => reply(200, system),
    [`GET ${SYSTEM}/sso_client`]: () => reply(200, null),
    [`GET ${PROV}/reconciliations`]: () =>
      reply(200, {
        content: [run],
        totalElements: 1,
        numberOfElements: 1,
        size: 10,
        number: 1,
        totalPages: 1,
        first: true,
        last: true,
        sort: 'id,desc',
      }),
    ...handlers,
  });
  const view = renderRoute({
    path: '/app/configure/systems/:id',
    url: '/app/configure/systems/5',
    element: <SystemPage />,
    permissions,
  });
  return { ...view, api };
}
