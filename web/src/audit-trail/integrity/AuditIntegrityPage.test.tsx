/**
 * Audit Integrity (ADMIN) on mocked HTTP: the state before any verification, 'Verify now' showing progress
 * while the run goes and then a changed trail as a danger alert with its findings in words; a start the
 * workflow service refuses (503) says so.
 */
import { AUDIT_INTEGRITY_TEXTS as T, type AuditIntegrity } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, reply, sequence } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { AuditIntegrityPage } from './AuditIntegrityPage';

const GET = 'GET /rest/secure/audit_integrity';
const VERIFY = 'POST /rest/secure/audit_integrity/verify';

afterEach(() => vi.restoreAllMocks());

const before: AuditIntegrity = {
  lastVerification: null,
  running: false,
  lastRunFailed: false,
  newestSeal: { id: '7', sealedAt: '2026-12-02T10:00:00.000Z', rows: 40 },
  awaitingSeal: 3,
  sealing: true,
};
const changed: AuditIntegrity = {
  ...before,
  lastVerification: {
    at: '2026-12-02T10:05:00.000Z',
    by: 'admin',
    ok: false,
    rows: 1234,
    seals: 7,
    awaitingSeal: 3,
    findingsTotal: 2,
    findings: [
      {
        kind: 'ROW_CHANGED',
        rowId: '17',
        sealId: '2',
        from: '2026-12-01T09:00:00.000Z',
        to: '2026-12-01T09:01:00.000Z',
        detail: 'row 17 differs from seal 2',
      },
      { kind: 'SEALS_CUT_OFF', rowId: null, sealId: '8', from: null, to: null, detail: 'seal 8 is missing' },
    ],
    ms: 1500,
  },
};

function render(...reads: AuditIntegrity[]) {
  const api = mockApi({
    [GET]: sequence(...reads.map((body) => () => reply(200, body))),
    [VERIFY]: () => reply(202, { running: true }),
  });
  const { user } = renderRoute({
    path: '/app/audit-trail/integrity',
    url: '/app/audit-trail/integrity',
    element: <AuditIntegrityPage />,
    permissions: ['ADMIN'],
  });
  return { api, user };
}

describe('Audit Integrity', () => {
  it('verifies on request, shows progress, then a changed trail with its findings', async () => {
    const { api, user } = render(before, { ...before, running: true }, changed);
    expect(await screen.findByRole('heading', { level: 1, name: T.title })).toBeVisible();
    expect(screen.getByText(T.never)).toBeVisible();
    expect(screen.getByText(/#7, 12\/02\/2026/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: T.verifyNow }));
    expect(await screen.findByText(T.verifying)).toBeVisible();
    expect(screen.getByRole('button', { name: T.verifyNow })).toBeDisabled();
    const alert = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(alert).toHaveTextContent(T.notIntact);
    expect(alert).toHaveTextContent('by admin: 1,234 entries in 7 seals');
    const table = screen.getByRole('table', { name: 'Findings' });
    expect(within(table).getByRole('row', { name: /Entry changed/ })).toHaveTextContent('#17#2');
    expect(within(table).getByRole('row', { name: /Newest seals cut off/ })).toHaveTextContent('seal 8 is missing');
    expect(screen.getByRole('button', { name: T.verifyNow })).toBeEnabled();
    expect(api.callsTo(VERIFY)).toHaveLength(1);
  }, 15_000);

  it('says so when the workflow service does not answer', async () => {
    mockApi({
      [GET]: () => reply(200, before),
      [VERIFY]: () => reply(503, { message: T.temporalUnavailable }),
    });
    const { user } = renderRoute({
      path: '/app/audit-trail/integrity',
      url: '/app/audit-trail/integrity',
      element: <AuditIntegrityPage />,
      permissions: ['ADMIN'],
    });
    await user.click(await screen.findByRole('button', { name: T.verifyNow }));
    expect(await screen.findByRole('alert')).toHaveTextContent(T.temporalUnavailable);
  });
});
