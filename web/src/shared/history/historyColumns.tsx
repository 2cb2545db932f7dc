import type { AccessControl, System, UserRequestStatus } from '@portal/contract';
import type { DataTableColumn } from 'mantine-datatable';
import type { ReactNode } from 'react';
import { CondensedList } from '../CondensedList';
import { StatusBadge } from '../StatusBadge';
import { SignatureManifest } from '../signature/SignatureManifest';
import { CondensedText, DateTimeCell } from '../TableCells';
import { joinOrMissing } from '../format';
import { systemNames } from '../referenceData';

/**
 * The columns the Requests History tables share (001 §2.9; 000 §2 User detail / Profile): Date Submitted
 * first (sortable), the status second as a badge, the role-block lists condensed (issue 9: no sideways
 * scroll), and the comments.
 */

/** 'Date Submitted', the first column of every history table (newest first by it). */
export function dateSubmittedColumn<T extends { sysdat: string }>(): DataTableColumn<T> {
  return {
    accessor: 'sysdat',
    title: 'Date Submitted',
    sortable: true,
    render: (r) => <DateTimeCell value={r.sysdat} />,
  };
}

/**
 * The status as a badge, under the table's own title (a request's or a registration's status); `under` adds a
 * line below it (an access request's open approval stage), never in its place.
 */
export function statusColumn<T>(
  title: string,
  status: (r: T) => UserRequestStatus,
  under?: (r: T) => ReactNode,
): DataTableColumn<T> {
  // A signed decision's signatures under its status (present only when signatures are on; the column stays).
  return {
    accessor: 'status',
    title,
    sortable: true,
    render: (r) => (
      <>
        <StatusBadge status={status(r)} />
        {under?.(r)}
        <SignatureManifest view={r} compact />
      </>
    ),
  };
}

type Blocks = readonly Pick<AccessControl, 'roleName' | 'laoIds' | 'siteCodes' | 'studyNames' | 'systemAccessIds'>[];

const roles = (blocks: Blocks) => blocks.map((b) => b.roleName);
const sites = (blocks: Blocks) => blocks.flatMap((b) => [...(b.laoIds ?? []), ...(b.siteCodes ?? [])]);
const studies = (blocks: Blocks) => blocks.flatMap((b) => b.studyNames);
const systemsOf = (blocks: Blocks, systems: System[] | undefined) => [
  ...new Set(blocks.flatMap((b) => systemNames(b.systemAccessIds, systems))),
];

/** The role-block cells as text, '---' when empty (the tables' filter and sort read them). */
export function blockCells(blocks: Blocks, systems: System[] | undefined) {
  return {
    roles: joinOrMissing(roles(blocks)),
    sites: joinOrMissing(sites(blocks)),
    studies: joinOrMissing(studies(blocks)),
    systems: joinOrMissing(systemsOf(blocks, systems)),
  };
}

/**
 * The role-block columns (study roles, LAOs / AOs, studies, systems) as condensed lists, for the table to
 * place; `titles` are the table's words for the roles and systems columns.
 */
export function blockColumns<T extends { accessControls: Blocks }>(
  systems: System[] | undefined,
  titles: { roles: string; systems: string },
): Record<'roles' | 'sites' | 'studies' | 'systems', DataTableColumn<T>> {
  return {
    roles: {
      accessor: 'roles',
      title: titles.roles,
      render: (r) => <CondensedList items={roles(r.accessControls)} noun={['role', 'roles']} />,
    },
    sites: {
      accessor: 'sites',
      title: 'LAOs / AOs',
      render: (r) => <CondensedList items={sites(r.accessControls)} noun={['site', 'sites']} />,
    },
    studies: {
      accessor: 'studies',
      title: 'Study(s)',
      render: (r) => <CondensedList items={studies(r.accessControls)} noun={['study', 'studies']} />,
    },
    systems: {
      accessor: 'systems',
      title: titles.systems,
      render: (r) => <CondensedList items={systemsOf(r.accessControls, systems)} noun={['system', 'systems']} />,
    },
  };
}

/**
 * 'Requester Comments' (`requester` draws the cell) and, when `showReviewerComments` (not on one's own
 * history), 'Reviewer Comments'; both condensed.
 */
export function commentColumns<T extends { reviewerComments: string | null }>(
  requester: (r: T) => ReactNode,
  showReviewerComments: boolean,
): DataTableColumn<T>[] {
  const columns: DataTableColumn<T>[] = [
    { accessor: 'requesterComments', title: 'Requester Comments', render: requester },
  ];
  if (showReviewerComments) {
    columns.push({
      accessor: 'reviewerComments',
      title: 'Reviewer Comments',
      render: (r) => <CondensedText text={r.reviewerComments} />,
    });
  }
  return columns;
}
