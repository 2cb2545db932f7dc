import { Badge, Checkbox, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { UserDetail } from '@portal/contract';
import { LoadError } from '../shared/ErrorAlert';
import { orMissing } from '../shared/format';
import { usePortalRoles } from './api/getPortalRoles';
import { UserTextField } from './UserFields';
import type { UserFormValues } from './userForm';

const INTERNAL_HINT = 'Not editable for "internal" users';

/**
 * Account tab (000 §2 User detail): name, email, username and gecos (locked for an internal account unless
 * the viewer is an administrator, 000 §5), the read-only account type and UID number, and the portal roles
 * as checkboxes, each with its permissions.
 */
export function AccountTab({
  user,
  form,
  readOnly,
  locked,
}: {
  user: UserDetail;
  form: UseFormReturnType<UserFormValues>;
  readOnly: boolean;
  locked: ReadonlySet<string>;
}) {
  const roles = usePortalRoles();
  const field = (name: 'firstName' | 'lastName' | 'email' | 'username' | 'gecos') => (
    <UserTextField
      form={form}
      name={name}
      readOnly={readOnly || locked.has(name)}
      hint={locked.has(name) ? INTERNAL_HINT : undefined}
    />
  );
  return (
    <Stack gap="lg">
      <Paper withBorder p="md" component="section" aria-labelledby="user-account-heading">
        <Title order={2} mb="sm" id="user-account-heading">
          Account
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {field('firstName')}
          {field('lastName')}
          {field('email')}
          {field('username')}
          {field('gecos')}
        </SimpleGrid>
        <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} mt="md" m={0}>
          <div>
            <Text size="sm" c="dimmed" component="dt">
              Account Type
            </Text>
            <Text component="dd" m={0} fw={500} data-testid="account-type">
              {orMissing(user.accountType)}
            </Text>
          </div>
          <div>
            <Text size="sm" c="dimmed" component="dt">
              UID Number
            </Text>
            <Text component="dd" m={0} fw={500}>
              {orMissing(user.uidNumber === null ? null : String(user.uidNumber))}
            </Text>
          </div>
        </SimpleGrid>
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="user-roles-heading">
        <Title order={2} mb="sm" id="user-roles-heading">
          Portal Roles
        </Title>
        {roles.isError && <LoadError text="Problem loading portal roles." onRetry={() => void roles.refetch()} />}
        <Checkbox.Group {...form.getInputProps('portalRoleIds')} aria-labelledby="user-roles-heading">
          <Stack gap="sm">
            {(roles.data ?? []).map((role) => (
              <Checkbox
                key={role.id}
                value={String(role.id)}
                disabled={readOnly}
                label={role.description}
                description={
                  <Group gap={4} component="span">
                    {role.permissions.map((p) => (
                      <Badge key={p} variant="light" size="sm" component="span">
                        {p}
                      </Badge>
                    ))}
                  </Group>
                }
              />
            ))}
          </Stack>
        </Checkbox.Group>
      </Paper>
    </Stack>
  );
}
