/**
 * The Tableau server behind the dashboard's visualizations (000 §7 Visualizations, §3 Visualization; issue 11
 * Dashboard): its settings and the trusted-ticket exchange.
 *
 * Trusted authentication (Tableau Server "trusted tickets"): the API, from an address the Tableau server
 * trusts, POSTs `username` and `target_site` form-encoded to `{server}/trusted`; the server answers a
 * ticket as plain text, or `-1` when it refuses. The browser then opens
 * `{external}/trusted/{ticket}/t/{site}/views/{filePath}` once. Without TABLEAU_SERVER_URL nothing is
 * configured and the dashboard hides its visualizations.
 */
import { z } from 'zod';
import { PERMISSIONS, hasAllPermissions, type Permission, type Visualization } from '@portal/contract';
import type { ApiConfig } from '../../config';

/** One configured visualization: the 000 §3 fields, and the permission that shows it (default USER). */
const ConfiguredVisualizationSchema = z.object({
  id: z.number().int().min(1),
  filePath: z.string().min(1),
  title: z.string().min(1),
  description: z.string().default(''),
  tableauSite: z.string().default(''),
  permission: z.enum(PERMISSIONS).default('USER'),
});
type ConfiguredVisualization = z.infer<typeof ConfiguredVisualizationSchema>;

export interface TableauSettings {
  serverUrl: string;
  externalUrl: string;
  defaultSite: string;
  ticketUser?: string;
  visualizations: ConfiguredVisualization[];
}

/**
 * The Tableau settings from the API's configuration, or null when no server is configured.
 * @throws Error when TABLEAU_VISUALIZATIONS is not a JSON list of visualizations (a start-up error).
 */
export function tableauSettings(cfg: ApiConfig): TableauSettings | null {
  if (!cfg.TABLEAU_SERVER_URL) return null;
  let list: unknown;
  try {
    list = JSON.parse(cfg.TABLEAU_VISUALIZATIONS);
  } catch {
    throw new Error('TABLEAU_VISUALIZATIONS: must be a JSON list');
  }
  const parsed = z.array(ConfiguredVisualizationSchema).safeParse(list);
  if (!parsed.success) throw new Error(`TABLEAU_VISUALIZATIONS: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const trim = (url: string) => url.replace(/\/+$/, '');
  return {
    serverUrl: trim(cfg.TABLEAU_SERVER_URL),
    externalUrl: trim(cfg.TABLEAU_EXTERNAL_URL ?? cfg.TABLEAU_SERVER_URL),
    defaultSite: cfg.TABLEAU_SITE,
    ticketUser: cfg.TABLEAU_TICKET_USER,
    visualizations: parsed.data,
  };
}

/** The visualizations a holder of `permissions` may see (000 §6: roles control dashboard visibility). */
export function visibleVisualizations(settings: TableauSettings | null, permissions: readonly Permission[]) {
  return (settings?.visualizations ?? []).filter((v) => hasAllPermissions(permissions, [v.permission]));
}

/** The wire shape of a configured visualization (000 §3). */
export const visualizationOf = (v: ConfiguredVisualization): Visualization => ({
  id: v.id,
  filePath: v.filePath,
  title: v.title,
  description: v.description,
  tableauSite: v.tableauSite,
});

/** The Tableau server refused a ticket or could not be reached. */
export class TableauUnavailableError extends Error {}

/**
 * Asks the Tableau server for a trusted ticket for `username` on `site` (10 s at most).
 * @returns the ticket. @throws TableauUnavailableError on `-1`, a non-200 answer or no answer.
 */
export async function requestTrustedTicket(settings: TableauSettings, username: string, site: string) {
  let res: Response;
  try {
    res = await fetch(`${settings.serverUrl}/trusted`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, target_site: site }).toString(),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    throw new TableauUnavailableError(`trusted ticket: ${(err as Error).message}`);
  }
  const text = (await res.text()).trim();
  if (!res.ok || !text || text === '-1') throw new TableauUnavailableError(`trusted ticket refused (${res.status})`);
  return text;
}
