/**
 * Reconciliation in the provisioning section (issue 41): 'Reconcile Now' only after a confirmation, the new
 * run's report followed while it runs, the report's counts and its table of differences (kinds in words,
 * paged), 'Re-sync this person' on the rows that name a portal user, 'Download CSV', the past runs, and the
 * 503 of a workflow service that is away.
 */
import { PROVISIONING_MESSAGES as M } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { reply, sequence } from '../../testing/mockApi';
import { PROV, connection, renderProvisioning, report, run } from './provisioningFixtures';

const section = async () => within(await screen.findByRole('region', { name: 'Provisioning (SCIM)' }));

describe('provisioning reconciliation', () => {
  it('reconciles only after a confirmation and follows the new run to its report', async () => {
    const started = {
      ...run,
      id: 32,
      status: 'RUNNING' as const,
      finishedAt: null,
      orphans: 0,
      missing: 0,
      drifted: 0,
    };
    const { user, api } = renderProvisioning({
      [`GET ${PROV}`]: () => reply(200, connection()),
      [`POST ${PROV}/reconcile`]: () => reply(200, started),
      [`GET ${PROV}/reconciliations/32`]: sequence(
        () => reply(200, { ...started, differences: [] }),
        () => reply(200, { ...report, id: 32 }),
      ),
    });
    const s = await section();
    await user.click(await s.findByRole('button', { name: 'Reconcile Now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reconcile now?' });
    expect(within(dialog).getByText(/nothing is changed at the target/)).toBeInTheDocument();
    expect(api.callsTo(`POST ${PROV}/reconcile`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Reconcile Now' }));
    expect(await screen.findByText(M.reconcileStarted)).toBeInTheDocument();
    const report32 = within(await s.findByRole('region', { name: 'Report of run #32' }));
    expect(await report32.findByText('Running')).toBeInTheDocument();
    // Re-read every 2 s while it runs, until it is done.
    expect(await report32.findByText('Done', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(report32.getByText('1 should not exist, 1 missing, 1 drifted', { exact: false })).toBeInTheDocument();
  });

  it('does not start a reconciliation when the confirmation is cancelled, and says so on a 503', async () => {
    const { user, api } = renderProvisioning({
      [`GET ${PROV}`]: () => reply(200, connection()),
      [`POST ${PROV}/reconcile`]: () => reply(503, { message: 'The workflow service is not answering.' }),
    });
    const s = await section();
    await user.click(await s.findByRole('button', { name: 'Reconcile Now' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo(`POST ${PROV}/reconcile`)).toHaveLength(0);

    await user.click(s.getByRole('button', { name: 'Reconcile Now' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reconcile Now' }));
    const alert = await s.findByRole('alert');
    expect(alert).toHaveTextContent('Unable to start the reconciliation.');
    expect(alert).toHaveTextContent('The workflow service is not answering.');
  });

  it('shows the last report: its counts, the differences in words, a filter, re-sync and the CSV', async () => {
    const saved: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:csv');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { user, api } = renderProvisioning({
      [`GET ${PROV}`]: () => reply(200, connection()),
      [`GET ${PROV}/reconciliations/31`]: () => reply(200, report),
      [`POST ${PROV}/resync`]: () => reply(200, {}),
      [`GET ${PROV}/reconciliations/31/differences.csv`]: () =>
        new Response('kind,externalId\r\nORPHAN,ghost-1\r\n', {
          status: 200,
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="reconciliation-31-differences.csv"',
          },
        }),
    });
    const s = await section();
    expect(await s.findByText(/12 accounts at the target, 11 in the portal/)).toBeInTheDocument();
    const show = s.getByRole('button', { name: 'Show Report' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    await user.click(show);
    expect(s.getByRole('button', { name: 'Hide Report' })).toHaveAttribute('aria-expanded', 'true');

    const r = within(await s.findByRole('region', { name: 'Report of run #31' }));
    const table = await r.findByRole('table', { name: 'Differences' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Should not exist');
    expect(rows[0]).toHaveTextContent('ghost');
    expect(rows[0]).toHaveTextContent('ghost-1');
    expect(rows[1]).toHaveTextContent('Missing');
    expect(rows[2]).toHaveTextContent('Drifted');
    expect(rows[2]).toHaveTextContent('robin@old.test');
    // Only the rows naming a portal user can be re-synced.
    expect(within(rows[0]!).queryByRole('button')).not.toBeInTheDocument();
    await user.click(within(rows[2]!).getByRole('button', { name: 'Re-sync this person: robin' }));
    await waitFor(() => expect(api.callsTo(`POST ${PROV}/resync`)).toHaveLength(1));
    expect(api.callsTo(`POST ${PROV}/resync`)[0]!.body).toEqual({ portalUserId: 8 });
    expect(await screen.findByText(M.resyncStarted)).toBeInTheDocument();

    expect(r.getByText('1–3 of 3 differences shown')).toBeInTheDocument();

    await user.click(r.getByRole('button', { name: 'Download CSV' }));
    expect(await s.findByText('Differences downloaded: reconciliation-31-differences.csv')).toBeInTheDocument();
    expect(saved).toEqual(['reconciliation-31-differences.csv']);
  });

  // mantine-datatable lays its rows out only in a real browser: a past run's row and its 'Report' button are
  // checked by tests/e2e/provisioning.spec.ts.
  it('reads the past runs a page at a time', async () => {
    const { api } = renderProvisioning({ [`GET ${PROV}`]: () => reply(200, connection()) });
    const s = await section();
    expect(await s.findByRole('table', { name: 'Reconciliation runs' })).toBeInTheDocument();
    expect(await s.findByText('1 of 1 records shown')).toBeInTheDocument();
    expect(api.callsTo(`GET ${PROV}/reconciliations`)[0]!.search).toBe('?page=1&size=10');
  });

  it('pages through a long report, and says when it holds only the first differences', async () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ ...report.differences[1]!, userName: `person${i + 1}` }));
    const { user } = renderProvisioning({
      [`GET ${PROV}`]: () => reply(200, connection({ lastReconciliation: { ...run, missing: 1500 } })),
      [`GET ${PROV}/reconciliations/31`]: () => reply(200, { ...report, missing: 1500, differences: many }),
    });
    const s = await section();
    await user.click(await s.findByRole('button', { name: 'Show Report' }));
    expect(await s.findByText('The first 30 of 1502 differences; the CSV holds all of them.')).toBeInTheDocument();
    expect(s.getByText('1–25 of 30 differences shown')).toBeInTheDocument();
    await user.click(s.getByRole('button', { name: 'Page 2' }));
    expect(await s.findByText('26–30 of 30 differences shown')).toBeInTheDocument();
    expect(s.getByText('person30')).toBeInTheDocument();
    expect(s.queryByText('person1')).not.toBeInTheDocument();
  });

  it('says when the system was never reconciled, and hides the report without a run', async () => {
    renderProvisioning({ [`GET ${PROV}`]: () => reply(200, connection({ lastReconciliation: null })) });
    const s = await section();
    expect(await s.findByText('Not reconciled yet.')).toBeInTheDocument();
    expect(s.queryByRole('button', { name: 'Show Report' })).not.toBeInTheDocument();
    expect(s.queryByRole('table', { name: 'Reconciliation runs' })).not.toBeInTheDocument();
  });
});
