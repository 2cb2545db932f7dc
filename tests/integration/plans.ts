/**
 * Reading PostgreSQL's plans (EXPLAIN (FORMAT JSON)) in the growth plan tests (growth-explain.test.ts,
 * growth-explain-orders.test.ts): the nodes, and the big tables a plan reads with a sequential scan.
 */

/** The tables that grow to millions of rows. */
export const BIG = new Set(['UserRequestQueue', 'PortalUser', 'AuditEvent', 'AccessModRequest']);

/** One node of a JSON plan. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/** The big tables a plan reads with a sequential scan. */
export function seqScans(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' && BIG.has(node['Relation Name'] ?? '') ? [node['Relation Name']!] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}
