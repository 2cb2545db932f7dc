import { Alert, Anchor, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { AUDIT_INTEGRITY_TEXTS as T, type AuditIntegrity, type AuditVerificationSummary } from '@portal/contract';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../lib/apiClient';
import { paths } from '../../lib/paths';
import { LoadError, MessageAlert, type PageMessage } from '../../shared/ErrorAlert';
import { PageLoader } from '../../shared/PageLoader';
import { formatDateTime } from '../../shared/format';
import { usePageTitle } from '../../shared/usePageTitle';
import { FindingsTable } from './FindingsTable';
import { useAuditIntegrity, useVerifyNow } from './api';

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The last verification: a success or a danger alert with what was verified, then its findings. */
function LastVerification({ v }: { v: AuditVerificationSummary }) {
  return (
    <Stack gap="sm">
      <Alert color={v.ok ? 'green' : 'red'} title={v.ok ? T.intact : T.notIntact} role={v.ok ? 'status' : 'alert'}>
        <Text size="sm">
          Verified {formatDateTime(v.at)} by {v.by}: {count(v.rows, 'entry', 'entries')} in {count(v.seals, 'seal')}, in{' '}
          {seconds(v.ms)}.{!v.ok && ` ${count(v.findingsTotal, 'finding')}: see below.`}
        </Text>
        {v.awaitingSeal > 0 && (
          <Text size="sm">{count(v.awaitingSeal, 'newer entry', 'newer entries')} were awaiting their seal.</Text>
        )}
      </Alert>
      <Title order={3}>Findings</Title>
      <FindingsTable verification={v} />
    </Stack>
  );
}

/** The newest seal and the entries written since. */
function Seals({ state }: { state: AuditIntegrity }) {
  const seal = state.newestSeal;
  return (
    <Card withBorder padding="md">
      <Title order={2} size="h3" mb="xs">
        Seals
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        <Text size="sm">
          <b>Newest seal:</b>{' '}
          {seal
            ? `#${seal.id}, ${formatDateTime(seal.sealedAt)}, covering ${count(seal.rows, 'entry', 'entries')}`
            : T.noSeal}
        </Text>
        <Text size="sm">
          <b>Awaiting their seal:</b> {count(state.awaitingSeal, 'entry', 'entries')}
        </Text>
      </SimpleGrid>
      {!state.sealing && (
        <Text size="sm" c="dimmed" mt="xs">
          {T.sealingOff}
        </Text>
      )}
    </Card>
  );
}

/**
 * Audit Integrity /app/audit-trail/integrity (ADMIN; docs/decisions.md "A tamper-evident audit trail"): the
 * last verification of the sealed audit trail (when, by whom, what was verified, intact or not, the findings),
 * the newest seal and the entries awaiting theirs, and 'Verify now', which starts the verification workflow and
 * follows it (the state is re-read every 2 s while it runs; the button waits meanwhile).
 */
export function AuditIntegrityPage() {
  usePageTitle(T.title);
  const [message, setMessage] = useState<PageMessage | null>(null);
  const state = useAuditIntegrity();
  const verify = useVerifyNow({
    mutationConfig: {
      onMutate: () => setMessage(null),
      onError: (error) =>
        setMessage({
          kind: 'error',
          text: error instanceof ApiError && error.status === 503 ? error.message : T.startFailed,
        }),
    },
  });

  if (state.isPending) return <PageLoader label="Loading the audit trail’s integrity" />;
  if (state.isError) return <LoadError text={T.loadFailed} onRetry={() => void state.refetch()} />;
  const s = state.data;
  const running = s.running || verify.isPending;

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.app.auditTrail.href()} size="sm">
        &larr; Back to the Audit Trail
      </Anchor>
      <Title order={1}>{T.title}</Title>
      <Text c="dimmed" size="sm">
        {T.intro}
      </Text>
      <MessageAlert message={message} onClose={() => setMessage(null)} />
      <Group gap="md" align="center">
        <Button onClick={() => verify.mutate()} disabled={running}>
          {T.verifyNow}
        </Button>
        <Group gap="xs" role="status" aria-live="polite">
          {running && (
            <>
              <Loader size="sm" />
              <Text size="sm">{T.verifying}</Text>
            </>
          )}
        </Group>
      </Group>
      {s.lastRunFailed && !running && (
        <Alert color="yellow" title="Warning" role="alert">
          {T.runFailed}
        </Alert>
      )}
      <Stack gap="sm">
        <Title order={2} size="h3">
          Last verification
        </Title>
        {s.lastVerification ? <LastVerification v={s.lastVerification} /> : <Text size="sm">{T.never}</Text>}
      </Stack>
      <Seals state={s} />
    </Stack>
  );
}
