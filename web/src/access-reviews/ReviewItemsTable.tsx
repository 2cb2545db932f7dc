import { Anchor, Checkbox, Group, Stack, Table, Text } from '@mantine/core';
import type { AccessReviewItem } from '@portal/contract';
import { Fragment, useState } from 'react';
import { AccessEnd } from '../shared/AccessEnd';
import { AccessProvenance } from '../shared/AccessProvenance';
import { CondensedList } from '../shared/CondensedList';
import stacked from '../shared/DataTable.module.css';
import { orMissing } from '../shared/format';
import { ChangedMark, ItemDecision } from './ItemDecision';
import { groupByPerson, itemName } from './itemGroups';
import classes from './ReviewItemsTable.module.css';

/** The item columns after the selection box (the phone layout labels each cell with its title). */
const COLUMNS = ['Study Role', 'AOs', 'LAOs', 'Studies', 'Systems', 'Access Ends', 'Decision', 'Decided By'];

export interface ReviewItemsTableProps {
  items: AccessReviewItem[];
  /** Null in a read-only (closed) campaign: no selection boxes. */
  selection: { selected: ReadonlySet<number>; onChange: (ids: number[], on: boolean) => void } | null;
}

/** One item's row and, when its History is open, the row below with where the access came from. */
function ItemRow({ item, selection }: { item: AccessReviewItem; selection: ReviewItemsTableProps['selection'] }) {
  const [open, setOpen] = useState(false);
  const historyId = `review-item-history-${item.id}`;
  const cell = (label: string) => ({ 'data-label': label });
  // After close the outcome says it: a removed record is no longer active, which is no change since the snapshot.
  const changed = item.outcome ? item.outcome === 'CHANGED' : item.changed;
  return (
    <>
      <Table.Tr>
        {selection && (
          <Table.Td {...cell('')}>
            <Checkbox
              aria-label={`Select ${itemName(item)}`}
              checked={selection.selected.has(item.id)}
              onChange={(e) => selection.onChange([item.id], e.currentTarget.checked)}
            />
          </Table.Td>
        )}
        <Table.Td {...cell('Study Role')}>
          {/* One child: the phone's stacked row lays a cell out as a label and one value. */}
          <Stack gap={2} align="flex-start">
            <Text size="sm" fw={600}>
              {item.roleName}
            </Text>
            {changed && <ChangedMark />}
            <Anchor
              component="button"
              type="button"
              size="sm"
              aria-expanded={open}
              aria-controls={historyId}
              aria-label={`History of ${itemName(item)}`}
              onClick={() => setOpen((o) => !o)}
            >
              History
            </Anchor>
          </Stack>
        </Table.Td>
        <Table.Td {...cell('AOs')}>
          <CondensedList items={item.siteCodes} noun={['AO', 'AOs']} />
        </Table.Td>
        <Table.Td {...cell('LAOs')}>
          <CondensedList items={item.laoIds} noun={['LAO', 'LAOs']} />
        </Table.Td>
        <Table.Td {...cell('Studies')}>
          <CondensedList items={item.studyNames} noun={['study', 'studies']} />
        </Table.Td>
        <Table.Td {...cell('Systems')}>
          <CondensedList items={item.systemNames} noun={['system', 'systems']} />
        </Table.Td>
        <Table.Td {...cell('Access Ends')}>
          <AccessEnd date={item.accessEndDate} soon={false} />
        </Table.Td>
        <Table.Td {...cell('Decision')}>
          <ItemDecision item={item} />
        </Table.Td>
        <Table.Td {...cell('Decided By')}>{orMissing(item.decidedByUsername)}</Table.Td>
      </Table.Tr>
      {open && (
        <Table.Tr className={classes.history} id={historyId}>
          <Table.Td colSpan={COLUMNS.length + (selection ? 1 : 0)} {...cell('History')}>
            <AccessProvenance portalUserId={item.portalUserId} accessId={item.accessId} />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

/**
 * A page of review items grouped by person (issue 25 'Access Reviews'): a header row per person (name,
 * username, email), then one row per access record with its study role, sites, studies, systems, end date,
 * decision and reviewer, a 'Changed since the review started' mark when the record changed after the
 * snapshot, and a History disclosure (AccessProvenance). With `selection`, a box per item and one selecting
 * the whole page. On a phone the rows become cards (the shared stacked layout).
 */
export function ReviewItemsTable({ items, selection }: ReviewItemsTableProps) {
  const groups = groupByPerson(items);
  const pageIds = items.map((i) => i.id);
  const selectedHere = selection ? pageIds.filter((id) => selection.selected.has(id)).length : 0;
  const span = COLUMNS.length + (selection ? 1 : 0);
  return (
    <div className={stacked.stacked}>
      <Table withTableBorder verticalSpacing="xs" aria-label="Review items">
        <Table.Thead>
          <Table.Tr>
            {selection && (
              <Table.Th>
                <Checkbox
                  aria-label="Select all items on this page"
                  // On a phone the header row shows only this box, which needs its words beside it.
                  label={<span className={classes.phoneOnly}>Select all items on this page</span>}
                  checked={pageIds.length > 0 && selectedHere === pageIds.length}
                  indeterminate={selectedHere > 0 && selectedHere < pageIds.length}
                  disabled={pageIds.length === 0}
                  onChange={(e) => selection.onChange(pageIds, e.currentTarget.checked)}
                />
              </Table.Th>
            )}
            {COLUMNS.map((c) => (
              <Table.Th key={c} scope="col">
                {c}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        {groups.map((g, n) => (
          <Fragment key={`${g.portalUserId}-${n}`}>
            <Table.Tbody>
              <Table.Tr className={classes.person}>
                <Table.Th colSpan={span} scope="rowgroup">
                  <Group gap="xs" wrap="wrap">
                    <Text fw={700} size="sm" span>
                      {g.name}
                    </Text>
                    <Text size="sm" span>
                      ({g.username})
                    </Text>
                    <Text size="sm" span c="dimmed">
                      {g.email}
                    </Text>
                  </Group>
                </Table.Th>
              </Table.Tr>
              {g.items.map((item) => (
                <ItemRow key={item.id} item={item} selection={selection} />
              ))}
            </Table.Tbody>
          </Fragment>
        ))}
      </Table>
    </div>
  );
}
