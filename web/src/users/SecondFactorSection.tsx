import { Alert, Badge, Button, Group, Modal, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { UserDetail, UserSecondFactors } from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, request } from '../lib/apiClient';
import { userKeys } from './api/userKeys';

const url = (id: number) => `/rest/secure/user_management/users/${id}/second_factor`;

/**
 * The second sign-in step of a user, on the user detail's Account tab (issue 37; docs/decisions.md "Second
 * factors"): READ_USERS sees which kinds the person has and their recovery codes left, never a secret; an
 * ADMIN resets them after confirming (the person is signed out, mailed, and sets up a first app again).
 */
export function SecondFactorSection({ user, canReset }: { user: UserDetail; canReset: boolean }) {
  const queryClient = useQueryClient();
  const key = [...userKeys.detail(user.id), 'second-factor'];
  const factors = useQuery({
    queryKey: key,
    queryFn: async () => (await request<UserSecondFactors>('GET', url(user.id))).data as UserSecondFactors,
  });
  const reset = useMutation({
    mutationFn: async () => (await request<{ removed: number }>('POST', `${url(user.id)}/reset`)).data,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
  const [confirming, setConfirming] = useState(false);
  const has = !!factors.data && factors.data.kinds.length > 0;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="user-second-factor-heading">
      <Title order={2} mb="sm" id="user-second-factor-heading">
        Second Sign-In Step
      </Title>
      {factors.isPending ? (
        <Skeleton height={24} width={240} role="status" aria-label="Loading the second sign-in step" />
      ) : factors.error ? (
        <Alert color="red" role="alert">
          {factors.error instanceof ApiError ? factors.error.message : 'Problem loading the second sign-in step.'}
        </Alert>
      ) : (
        <Stack gap="sm">
          <Group gap="sm">
            {has ? (
              <Badge color="green" variant="light">
                Authenticator app
              </Badge>
            ) : (
              <Badge color="gray" variant="light">
                {factors.data.awaitingEmail ? 'Authenticator app waiting for the emailed link' : 'None'}
              </Badge>
            )}
            {has && <Text size="sm">{factors.data.recoveryCodesLeft} of 10 recovery codes left</Text>}
          </Group>
          {reset.data && (
            <Alert color="green" role="status">
              The second sign-in step of {user.firstName} {user.lastName} was reset. They were signed out and were
              emailed.
            </Alert>
          )}
          {reset.error && (
            <Alert color="red" role="alert">
              {reset.error instanceof ApiError ? reset.error.message : 'The reset failed. Please try again.'}
            </Alert>
          )}
          {canReset && (has || factors.data.awaitingEmail) && (
            <Group>
              <Button variant="default" color="red" onClick={() => setConfirming(true)} loading={reset.isPending}>
                Reset second sign-in step
              </Button>
            </Group>
          )}
        </Stack>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Reset Second Sign-In Step" centered>
        <Text mb="lg">
          Remove every authenticator app and recovery code of {user.firstName} {user.lastName}? They are signed out at
          once and set up a new app at their next sign-in, confirmed by email.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
            Cancel
          </Button>
          <Button
            color="red"
            onClick={() => {
              setConfirming(false);
              reset.mutate();
            }}
          >
            Reset
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}
