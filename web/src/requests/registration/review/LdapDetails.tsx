import { Button, Group, Modal, Paper, Radio, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  ACCOUNT_TYPE_LABELS,
  ACCOUNT_TYPES,
  FIELD_LIMITS,
  type AccountTypes,
  type LdapMatch,
  type Registration,
} from '@portal/contract';
import { useState } from 'react';
import { LoadError } from '../../../shared/ErrorAlert';
import { useLdapMatches, type LdapSearch } from '../api/useLdapMatches';
import { PENDING_USER_LABELS, suggestedUsername, type PendingUserValues } from './pendingUserForm';
import { BusyIndicator } from '../../../shared/BusyIndicator';

const NEW_ACCOUNT = '';

const matchLabel = (m: LdapMatch) => `${m.username} - ${m.firstName} ${m.lastName} <${m.email}>`;
const matchDescription = (m: LdapMatch) =>
  `Gecos: ${m.gecos || '---'}${m.attachedToPortalUserAccount ? ' (already linked to a portal user)' : ''}`;

/** The 'Modify Search' dialog (001 §2.4): new terms for both directory searches; 'Search LDAP' or 'Go Back'. */
function ModifySearch({
  opened,
  search,
  onSearch,
  onClose,
}: {
  opened: boolean;
  search: LdapSearch;
  onSearch: (next: LdapSearch) => void;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState(search);
  const set = (field: keyof LdapSearch) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setDraft({ ...draft, [field]: e.currentTarget.value });
  return (
    <Modal opened={opened} onClose={onClose} title="Modify Search">
      <Stack gap="sm">
        <TextInput label="Email" value={draft.email} onChange={set('email')} maxLength={FIELD_LIMITS.email} />
        <TextInput
          label="First Name"
          value={draft.firstName}
          onChange={set('firstName')}
          maxLength={FIELD_LIMITS.firstName}
        />
        <TextInput
          label="Last Name"
          value={draft.lastName}
          onChange={set('lastName')}
          maxLength={FIELD_LIMITS.lastName}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Go Back
          </Button>
          <Button onClick={() => onSearch(draft)}>Search LDAP</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * LDAP Details of Review Pending User (001 §2.4, §3 LDAP form and match, §5): the directory matches found by
 * email and by name (merged by uuid; entries already linked to a portal user disabled), 'Modify Search', and
 * the account: Gecos, Username and Account Type for a new directory account (taken from the entry, read-only,
 * when an existing one is chosen), with the registration's names and email read-only.
 */
export function LdapDetails({
  registration,
  form,
  accountTypes,
  readOnly,
}: {
  registration: Registration;
  form: UseFormReturnType<PendingUserValues>;
  accountTypes: AccountTypes | undefined;
  readOnly: boolean;
}) {
  const [search, setSearch] = useState<LdapSearch>({
    email: registration.email,
    firstName: registration.firstName,
    lastName: registration.lastName,
  });
  const [searching, setSearching] = useState(false);
  const { matches, loading, failed, retry } = useLdapMatches(search);
  const values = form.getValues();
  const existing = values.existingUuid !== NEW_ACCOUNT;

  const choose = (uuid: string | null) => {
    const match = matches.find((m) => m.uuid === uuid);
    form.setValues({
      existingUuid: match?.uuid ?? NEW_ACCOUNT,
      gecos: match ? match.gecos : `${registration.firstName} ${registration.lastName}`.trim(),
      username: match ? match.username : suggestedUsername(registration.firstName, registration.lastName),
    });
    form.clearFieldError('existingUuid');
  };

  const typeOptions = (accountTypes?.assignableAccountTypes ?? ACCOUNT_TYPES.map((id) => ({ id, name: '' }))).map(
    (t) => ({ value: t.id, label: t.name || ACCOUNT_TYPE_LABELS[t.id] }),
  );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="ldap-heading">
      <Group justify="space-between" mb="sm">
        <Title order={3} id="ldap-heading">
          LDAP Details
        </Title>
        {!readOnly && (
          <Button variant="light" size="compact-sm" onClick={() => setSearching(true)}>
            Modify Search
          </Button>
        )}
      </Group>
      {searching && (
        <ModifySearch
          opened
          search={search}
          onClose={() => setSearching(false)}
          onSearch={(next) => {
            setSearch(next);
            setSearching(false);
          }}
        />
      )}
      <Stack gap="sm">
        {failed && <LoadError text="Problem searching the directory." onRetry={retry} />}
        <Text size="sm" c="dimmed" data-testid="ldap-search">
          Searched by email {search.email || '---'} and by name {search.firstName} {search.lastName}:{' '}
          {loading ? 'searching…' : `${matches.length} ${matches.length === 1 ? 'match' : 'matches'}`}
        </Text>
        <Radio.Group
          label="Directory Account"
          description="A match already linked to a portal user cannot be chosen."
          value={values.existingUuid}
          onChange={readOnly ? undefined : choose}
          error={form.errors.existingUuid}
        >
          <Stack gap="xs" mt="xs">
            <Radio value={NEW_ACCOUNT} label="Create a new directory account" disabled={readOnly} />
            {matches.map((m) => (
              <Radio
                key={m.uuid}
                value={m.uuid}
                label={matchLabel(m)}
                description={matchDescription(m)}
                disabled={readOnly || m.attachedToPortalUserAccount}
              />
            ))}
          </Stack>
        </Radio.Group>
        {loading && <BusyIndicator size="xs" label="Searching the directory" />}
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput
            label="First Name"
            value={registration.firstName}
            readOnly
            variant="filled"
            description="From the registration"
          />
          <TextInput
            label="Last Name"
            value={registration.lastName}
            readOnly
            variant="filled"
            description="From the registration"
          />
          <TextInput
            label="Email"
            value={registration.email}
            readOnly
            variant="filled"
            description="From the registration"
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput
            label={PENDING_USER_LABELS.gecos!.label}
            maxLength={FIELD_LIMITS.gecos}
            readOnly={readOnly || existing}
            variant={readOnly || existing ? 'filled' : 'default'}
            {...form.getInputProps('gecos')}
          />
          <TextInput
            label={PENDING_USER_LABELS.username!.label}
            maxLength={FIELD_LIMITS.username}
            readOnly={readOnly || existing}
            variant={readOnly || existing ? 'filled' : 'default'}
            {...form.getInputProps('username')}
          />
          <Select
            label={PENDING_USER_LABELS.accountType!.label}
            description={existing ? 'Set only for a new directory account' : undefined}
            data={typeOptions}
            allowDeselect={false}
            readOnly={readOnly || existing}
            variant={readOnly || existing ? 'filled' : 'default'}
            {...form.getInputProps('accountType')}
          />
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
