import { Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { MESSAGES, PROXY_TIMINGS, type Profile, type UserListRow, USERS_LIST_MESSAGES } from '@portal/contract';
import { useMemo, useState } from 'react';
import { ClientDataTable } from '../../../shared/DataTable';
import { LoadError } from '../../../shared/ErrorAlert';
import type { SiteOptions } from '../../../shared/referenceData';
import { useUsersAt } from '../api/proxyUsers';
import { parseChoice, selectableUsers, siteChoiceGroups } from './proxyPage';

const fullName = (u: UserListRow) => `${u.firstName} ${u.lastName}`;

/**
 * Steps 1-3 of 001 §2.7: pick an AO, an LAO or 'unaffiliated users'; a filterable table of the matching users
 * with checkboxes (loaded 1000 ms after the pick settles, 001 §9; the signed-in user and duplicate emails
 * dropped); the list of selected users, which keeps users picked at other sites.
 */
export function UserPicker({
  profile,
  sites,
  selected,
  onSelectedChange,
}: {
  profile: Profile;
  sites: SiteOptions;
  selected: UserListRow[];
  onSelectedChange: (next: UserListRow[]) => void;
}) {
  const [choice, setChoice] = useState<string | null>(null);
  const [settled] = useDebouncedValue(choice, PROXY_TIMINGS.userLoadDebounceMs);
  const users = useUsersAt(parseChoice(settled));
  const rows = useMemo(() => selectableUsers(users.data ?? [], profile.portalUserId), [users.data, profile]);
  const selectedIds = new Set(selected.map((u) => u.id));
  const selectedHere = rows.filter((r) => selectedIds.has(r.id));
  const waiting = choice !== settled || users.isFetching;

  /** The table reports the selection of its rows; users picked elsewhere stay selected. */
  const onTableSelection = (next: UserListRow[]) => {
    const rowIds = new Set(rows.map((r) => r.id));
    onSelectedChange([...selected.filter((u) => !rowIds.has(u.id)), ...next]);
  };

  return (
    <Stack gap="md">
      <Paper withBorder p="md" component="section" aria-labelledby="proxy-step-site">
        <Title order={2} id="proxy-step-site" mb="xs">
          1. Choose an AO, an LAO or unaffiliated users
        </Title>
        <Select
          label="AO / LAO"
          placeholder="Pick one"
          data={siteChoiceGroups(profile, sites)}
          value={choice}
          onChange={setChoice}
          searchable
          nothingFoundMessage="No AO or LAO matches"
          maw={480}
        />
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="proxy-step-users">
        <Title order={2} id="proxy-step-users" mb="xs">
          2. Select users
        </Title>
        {users.isError ? (
          <LoadError text={USERS_LIST_MESSAGES.loadFailed} onRetry={() => void users.refetch()} />
        ) : settled === null && !waiting ? (
          <Text size="sm" c="dimmed">
            Choose an AO, an LAO or unaffiliated users to list their users.
          </Text>
        ) : (
          <Stack gap="xs">
            {!waiting && rows.length > 0 && (
              <Group>
                <Button variant="light" size="xs" onClick={() => onTableSelection(rows)}>
                  Select all {rows.length} users
                </Button>
                {selectedHere.length > 0 && (
                  <Button variant="subtle" size="xs" onClick={() => onTableSelection([])}>
                    Unselect these users
                  </Button>
                )}
              </Group>
            )}
            <ClientDataTable<UserListRow>
              ariaLabel="Matching users"
              records={waiting ? [] : rows}
              fetching={waiting}
              filterLabel="Filter users"
              filterText={(u) => `${fullName(u)} ${u.email} ${u.organizationName}`}
              initialSort={{ columnAccessor: 'lastName', direction: 'asc' }}
              columns={[
                { accessor: 'firstName', title: 'First Name', sortable: true },
                { accessor: 'lastName', title: 'Last Name', sortable: true },
                {
                  accessor: 'email',
                  title: 'Email',
                  sortable: true,
                  render: (u) => <span style={{ overflowWrap: 'anywhere' }}>{u.email}</span>,
                },
                { accessor: 'organizationName', title: 'Organization', sortable: true },
              ]}
              selection={{
                selected: selectedHere,
                onChange: onTableSelection,
                rowLabel: (u) => `Select ${fullName(u)}`,
              }}
            />
          </Stack>
        )}
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="proxy-step-selected">
        <Group justify="space-between" mb="xs">
          <Title order={2} id="proxy-step-selected">
            3. Selected users ({selected.length})
          </Title>
          {selected.length > 0 && (
            <Button variant="subtle" size="xs" onClick={() => onSelectedChange([])}>
              Clear selection
            </Button>
          )}
        </Group>
        {selected.length === 0 ? (
          <Text size="sm" c="dimmed">
            {MESSAGES.tables.empty}
          </Text>
        ) : (
          <Stack component="ol" gap={4} pl="lg" m={0} aria-label="Selected users">
            {selected.map((u) => (
              // An e-mail address has no spaces: it wraps anywhere rather than widen a 320 px page.
              <Text component="li" size="sm" key={u.id} style={{ overflowWrap: 'anywhere' }}>
                {fullName(u)} ({u.email}){' '}
                <Button
                  variant="subtle"
                  size="compact-xs"
                  aria-label={`Remove ${fullName(u)}`}
                  onClick={() => onSelectedChange(selected.filter((s) => s.id !== u.id))}
                >
                  Remove
                </Button>
              </Text>
            ))}
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
