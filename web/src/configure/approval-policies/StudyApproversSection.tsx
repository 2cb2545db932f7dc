import { ActionIcon, Button, Group, Paper, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { APPROVAL_LIMITS, type StudyApprover } from '@portal/contract';
import { useState } from 'react';
import { LoadError, MessageAlert, type PageMessage } from '../../shared/ErrorAlert';
import { PageLoader } from '../../shared/PageLoader';
import { useAdminStudies, useSaveStudyApprovers, useStudyApprovers, useUserSearch, type StudyRef } from './api';
import { describePolicyFailure } from './policyForm';

const TEXTS = {
  loadStudies: 'Problem loading the studies.',
  loadApprovers: 'Problem loading the study’s approvers.',
  saveFailed: 'Problem saving the study’s approvers.',
  saved: (study: string) => `The approvers of ${study} were saved`,
  none: 'This study has no named approvers: a Study approvers stage for it escalates at its deadline.',
} as const;

const fullName = (u: Pick<StudyApprover, 'firstName' | 'lastName'>) => `${u.firstName} ${u.lastName}`.trim();

/**
 * 'Study approvers': pick a study, then edit its named approvers (who decide a 'Study approvers' stage of a
 * request naming the study): add people found by name, username or email, remove them, save the list.
 */
export function StudyApproversSection() {
  const studies = useAdminStudies();
  const [studyName, setStudyName] = useState<string | null>(null);
  const study = studies.data?.find((s) => s.study === studyName) ?? null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="study-approvers-heading">
      <Title order={2} id="study-approvers-heading">
        Study approvers
      </Title>
      {studies.isError && <LoadError text={TEXTS.loadStudies} onRetry={() => void studies.refetch()} />}
      <Select
        label="Study"
        placeholder={studies.data ? 'Pick a study' : 'Loading the studies…'}
        data={(studies.data ?? []).map((s) => ({
          value: s.study,
          label: s.active ? s.study : `${s.study} (inactive)`,
        }))}
        value={studyName}
        onChange={setStudyName}
        searchable
        nothingFoundMessage="No study matches"
        maw={420}
      />
      {study && <ApproversEditor key={study.study} study={study} />}
    </Stack>
  );
}

function ApproversEditor({ study }: { study: StudyRef }) {
  const approvers = useStudyApprovers(study);
  if (approvers.isError) return <LoadError text={TEXTS.loadApprovers} onRetry={() => void approvers.refetch()} />;
  if (!approvers.data) return <PageLoader label="Loading the study’s approvers" />;
  return <ApproversList study={study} stored={approvers.data} />;
}

function ApproversList({ study, stored }: { study: StudyRef; stored: StudyApprover[] }) {
  const [list, setList] = useState(stored);
  const [message, setMessage] = useState<PageMessage | null>(null);
  const save = useSaveStudyApprovers({
    onMutate: () => setMessage(null),
    onSuccess: (res) => {
      if (res.data) setList(res.data);
      notifications.show({ color: 'green', title: 'Success', message: TEXTS.saved(study.study) });
    },
    onError: (error) => setMessage(describePolicyFailure(error, TEXTS.saveFailed).message),
  });
  const dirty = JSON.stringify(list.map((a) => a.userId)) !== JSON.stringify(stored.map((a) => a.userId));
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <MessageAlert message={message} onClose={() => setMessage(null)} />
        {list.length === 0 ? (
          <Text size="sm">{TEXTS.none}</Text>
        ) : (
          <Table aria-label={`Approvers of ${study.study}`} striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Username</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Remove</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((a) => (
                <Table.Tr key={a.userId}>
                  <Table.Td>{fullName(a)}</Table.Td>
                  <Table.Td>{a.username}</Table.Td>
                  <Table.Td>{a.email}</Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove ${fullName(a)}`}
                      onClick={() => setList(list.filter((x) => x.userId !== a.userId))}
                    >
                      ×
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <UserPicker
          exclude={list.map((a) => a.userId)}
          disabled={list.length >= APPROVAL_LIMITS.studyApprovers}
          onPick={(a) => setList([...list, a])}
        />
        <Group>
          <Button
            onClick={() => save.mutate({ study, userIds: list.map((a) => a.userId) })}
            loading={save.isPending}
            disabled={!dirty}
          >
            Save approvers
          </Button>
          <Button variant="default" onClick={() => setList(stored)} disabled={!dirty || save.isPending}>
            Reset
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** A search box over the active users (two characters at least); picking one adds them. */
function UserPicker({
  exclude,
  disabled,
  onPick,
}: {
  exclude: number[];
  disabled: boolean;
  onPick: (approver: StudyApprover) => void;
}) {
  const [search, setSearch] = useState('');
  const [filter] = useDebouncedValue(search.trim(), 300);
  const users = useUserSearch(filter);
  const found = (users.data?.content ?? []).filter((u) => !exclude.includes(u.id));
  const nothing =
    filter.length < 2 ? 'Type two characters or more' : users.isFetching ? 'Searching…' : 'No user matches';
  return (
    <Select
      label="Add an approver"
      description="Search by name, username or email."
      placeholder="Search users"
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      value={null}
      // The server filters; every row it answers is an option.
      filter={({ options }) => options}
      data={found.map((u) => ({
        value: String(u.id),
        label: `${u.firstName} ${u.lastName} (${u.username}, ${u.email})`,
      }))}
      nothingFoundMessage={nothing}
      disabled={disabled}
      onChange={(v) => {
        const u = found.find((x) => String(x.id) === v);
        if (!u) return;
        onPick({ userId: u.id, username: u.username, firstName: u.firstName, lastName: u.lastName, email: u.email });
        setSearch('');
      }}
      maw={520}
    />
  );
}
