import { Alert, Anchor, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { AUTH_MESSAGES, type UserDetail } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../lib/apiClient';
import { useHasPermissions } from '../lib/sessionQueries';
import { formatDateTime } from '../shared/format';
import {
  getCanChangePasswordEver,
  getHasSetInitialPassword,
  passwordKeys,
  resendInitialEmail,
  useCanChangePasswordEver,
  useChangeRestriction,
  useClearChangeRestriction,
  useHasSetInitialPassword,
} from './api/passwordAdmin';

const TEXT = AUTH_MESSAGES.resend;
interface SectionAlert {
  color: 'green' | 'red' | 'blue';
  title: string;
  text: string;
}

const yesNo = (value: boolean | undefined, failed: boolean) =>
  failed ? 'Unknown' : value === undefined ? '…' : value ? 'Yes' : 'No';

/**
 * The Account tab's password section (000 §2 User detail: "a password-change restriction section with a
 * 'Remove password-change time restriction' button; a 'Resend initial email' link"; 000 §7 the five
 * user-management password calls; 000 §8 the resend alerts word for word):
 * - whether the portal manages the user's password ('ever') and whether the initial password was set;
 * - for administrators (the calls sit under the admin path), the minimum-age restriction with its end and a
 *   button that removes it after a confirmation;
 * - with WRITE_USERS, 'Resend initial email': it checks 'ever' and the initial password first, as 000 §5
 *   requires ("a user not permitted to change their password cannot be sent the initial email"), then sends.
 */
export function PasswordSection({ user, readOnly }: { user: UserDetail; readOnly: boolean }) {
  const isAdmin = useHasPermissions('ADMIN');
  const queryClient = useQueryClient();
  const ever = useCanChangePasswordEver(user.id);
  const initialSet = useHasSetInitialPassword(user.id);
  const { restricted, until } = useChangeRestriction(user.id, user.uuid, isAdmin);
  const [alert, setAlert] = useState<SectionAlert | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState(false);
  const clear = useClearChangeRestriction(user.id, {
    mutationConfig: {
      onMutate: () => setAlert(null),
      onSuccess: () =>
        setAlert({ color: 'green', title: 'Success', text: 'The password-change time restriction was removed.' }),
      onError: () => setAlert({ color: 'red', title: 'Error', text: AUTH_MESSAGES.restrictionClearFailed }),
    },
  });

  const resend = async () => {
    setAlert(null);
    setSending(true);
    const notSent = (text: string) => setAlert({ color: 'red', title: TEXT.failedTitle, text });
    try {
      let permitted: boolean;
      let alreadySet: boolean;
      try {
        [permitted, alreadySet] = await Promise.all([
          queryClient.fetchQuery({
            queryKey: passwordKeys.ever(user.id),
            queryFn: () => getCanChangePasswordEver(user.id),
          }),
          queryClient.fetchQuery({
            queryKey: passwordKeys.initialSet(user.id),
            queryFn: () => getHasSetInitialPassword(user.id),
          }),
        ]);
      } catch {
        return notSent(TEXT.undetermined);
      }
      if (!permitted) return notSent(TEXT.notPermitted);
      if (alreadySet) return notSent(TEXT.alreadySet);
      try {
        await resendInitialEmail(user.id);
        setAlert({ color: 'green', title: TEXT.sentTitle, text: TEXT.sent });
      } catch (err) {
        // 409 carries the spec's reason (not permitted, already set); anything else is unexpected.
        const known = [TEXT.notPermitted, TEXT.alreadySet, TEXT.undetermined] as string[];
        notSent(err instanceof ApiError && known.includes(err.message) ? err.message : TEXT.unexpected);
      }
    } finally {
      setSending(false);
    }
  };

  const restrictionLine = () => {
    if (!user.uuid) return <Text size="sm">No directory account: the portal does not manage this password.</Text>;
    if (restricted.isError || until.isError)
      return (
        <Text size="sm" c="red" role="alert">
          {AUTH_MESSAGES.restrictionUnknown}
        </Text>
      );
    if (restricted.data === undefined) return <Text size="sm">Checking…</Text>;
    if (!restricted.data)
      return (
        <Text size="sm" data-testid="password-restriction">
          Not restricted: the user may change their password now.
        </Text>
      );
    return (
      <Group gap="md">
        <Text size="sm" data-testid="password-restriction">
          Restricted: the user may not change their password
          {until.data?.changeAllowedFrom ? ` until ${formatDateTime(until.data.changeAllowedFrom)}` : ''}.
        </Text>
        {!readOnly && (
          <Button variant="default" size="xs" onClick={() => setConfirming(true)} loading={clear.isPending}>
            Remove password-change time restriction
          </Button>
        )}
      </Group>
    );
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="user-password-heading">
      <Title order={2} mb="sm" id="user-password-heading">
        Password
      </Title>
      <Stack gap="sm">
        {alert && (
          <Alert
            color={alert.color}
            title={alert.title}
            role={alert.color === 'red' ? 'alert' : 'status'}
            withCloseButton
            closeButtonLabel="Dismiss message"
            onClose={() => setAlert(null)}
            data-testid="password-alert"
          >
            {alert.text}
          </Alert>
        )}
        <Text size="sm" data-testid="password-managed">
          Password managed by the portal: {yesNo(ever.data, ever.isError)}
        </Text>
        <Text size="sm" data-testid="password-initial-set">
          Initial password set: {yesNo(initialSet.data, initialSet.isError)}
        </Text>
        {isAdmin && (
          <div>
            <Text size="sm" fw={600}>
              Password-change time restriction
            </Text>
            {restrictionLine()}
          </div>
        )}
        {!readOnly && (
          <div>
            <Anchor component="button" type="button" size="sm" onClick={() => void resend()} disabled={sending}>
              Resend initial email
            </Anchor>
          </div>
        )}
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Attention!" centered>
        <Text mb="lg">
          Remove the password-change time restriction of {user.firstName} {user.lastName}? They can then change their
          password at once.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
            Cancel
          </Button>
          <Button
            onClick={() => {
              setConfirming(false);
              if (user.uuid) clear.mutate(user.uuid);
            }}
          >
            OK
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}
