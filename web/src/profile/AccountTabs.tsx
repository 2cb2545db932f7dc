import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Profile } from '@portal/contract';
import type { ComponentType, ReactNode } from 'react';
import { orMissing } from '../shared/format';

function Field({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <div>
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text component="dd" m={0} fw={500}>
        {orMissing(value)}
      </Text>
    </div>
  );
}

function FieldList({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm" m={0}>
      {children}
    </SimpleGrid>
  );
}

/**
 * Account tab (000 §2 Profile screen): username and account type, the name and email as a request for a change
 * (`NameEmailRequest`: requested, not applied; 001 §2.10), and the portal roles.
 */
export function AccountTab({
  profile,
  NameEmailRequest,
}: {
  profile: Profile;
  /** The profile-change request's name and email form (handed in by app/ through `ProfilePage`). */
  NameEmailRequest: ComponentType<{ profile: Profile }>;
}) {
  return (
    <Stack gap="lg">
      <Paper withBorder p="md" component="section" aria-labelledby="account-heading">
        <Title order={2} mb="sm" id="account-heading">
          Account
        </Title>
        <Stack gap="lg">
          <FieldList>
            <Field label="Username" value={profile.username} />
            <Field label="Account Type" value={profile.accountType} />
          </FieldList>
          <NameEmailRequest profile={profile} />
        </Stack>
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="roles-heading">
        <Title order={2} mb="sm" id="roles-heading">
          Portal Roles
        </Title>
        {profile.roles.length === 0 ? (
          <Text c="dimmed">You hold no portal roles.</Text>
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {profile.roles.map((role) => (
              <Group key={role.id} component="li" gap="xs" wrap="wrap">
                <Text fw={500}>{role.description}</Text>
                {role.permissions.map((p) => (
                  <Badge key={p} variant="light" size="sm">
                    {p}
                  </Badge>
                ))}
              </Group>
            ))}
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}

/** Details tab: organization details, read-only (000 §2 Profile screen). */
export function DetailsTab({ profile }: { profile: Profile }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="org-heading">
      <Title order={2} mb="sm" id="org-heading">
        Organization Details
      </Title>
      <FieldList>
        <Field label="Organization Name" value={profile.organizationName} />
        <Field label="Job Title" value={profile.jobTitle} />
        <Field label="Phone Number" value={profile.phoneNumber} />
      </FieldList>
    </Paper>
  );
}
