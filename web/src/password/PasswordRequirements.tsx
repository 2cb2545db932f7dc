import { Alert, List, Paper, Skeleton, Stack, Title } from '@mantine/core';
import { usePasswordRules } from './api/getPasswordRules';

/** 'Password Requirements' beside a password form: the server's rules (000 §2 Change Password screen). */
export function PasswordRequirements() {
  const rules = usePasswordRules();
  return (
    <Paper withBorder p="md" radius="md" component="aside" aria-labelledby="password-requirements">
      <Stack gap="xs">
        <Title order={2} id="password-requirements">
          Password Requirements
        </Title>
        {rules.isPending && <Skeleton height={80} />}
        {rules.error && (
          <Alert color="red" role="alert">
            {rules.error.message}
          </Alert>
        )}
        {rules.data && (
          <List size="sm" spacing={4} data-testid="password-rules">
            {Object.values(rules.data).map((rule) => (
              <List.Item key={rule.id}>{rule.text}</List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Paper>
  );
}
