import { Alert, Badge, Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import {
  ACTIVE_REQUEST_EXISTS_STATUS,
  MESSAGES,
  PROXY_MESSAGES,
  PROXY_TIMINGS,
  REQUEST_TYPE_LABELS,
  translateFieldErrors,
  type ProxyBatchDetail,
  type ProxyUserResult,
  userOutcomes,
} from '@portal/contract';
import { useSelfClosing } from '../../../shared/useSelfClosing';

/** One user's line (001 §3 Per-user result, §8 per-user note). */
function resultText(r: ProxyUserResult): { label: string; color: string; note?: string } {
  switch (r.responseStatus) {
    case null:
      return { label: 'Waiting', color: 'gray' };
    case 200:
      return { label: r.requestType ? REQUEST_TYPE_LABELS[r.requestType] : 'Submitted', color: 'green' };
    case ACTIVE_REQUEST_EXISTS_STATUS:
      return { label: 'Not submitted', color: 'red', note: PROXY_MESSAGES.activeRequestExists };
    case 304:
      return { label: 'Not submitted', color: 'red', note: MESSAGES.access.noChanges };
    default: {
      const details = Object.entries(r.fieldErrors ?? {}).map(([k, v]) => translateFieldErrors(k, v));
      return { label: 'Not submitted', color: 'red', note: details.join('; ') || PROXY_MESSAGES.notSubmittedErrors };
    }
  }
}

/**
 * 001 §8 Proxy outcomes: the run's summary alert, closed by its close button or after 10,000 ms (001 §9), not
 * while it is hovered or focused; the 'NOT Submitted' error stays until closed (useSelfClosing).
 */
function SummaryAlert({ batch }: { batch: ProxyBatchDetail }) {
  const [dismissed, setDismissed] = useState<number | null>(null);
  const s = batch.summary;
  const noData = s.abortStatusCode === 304;
  const isError = s.abortedProcessing && !noData;
  const { shown, pauseProps } = useSelfClosing(
    dismissed === batch.id ? null : String(batch.id),
    !isError,
    PROXY_TIMINGS.alertMs,
  );
  if (!shown) return null;
  const close = {
    withCloseButton: true,
    closeButtonLabel: 'Dismiss message',
    onClose: () => setDismissed(batch.id),
    ...pauseProps,
  };
  if (s.abortedProcessing) {
    return (
      <Alert color={noData ? 'blue' : 'red'} title={PROXY_MESSAGES.notSubmittedTitle} role="alert" {...close}>
        {noData ? PROXY_MESSAGES.notSubmittedNoData : PROXY_MESSAGES.notSubmittedErrors}
      </Alert>
    );
  }
  // With several role blocks a user has one request per block: the sentence counts users throughout.
  const { users, successes, failures } = userOutcomes(batch.results);
  return (
    <Alert color={failures ? 'yellow' : 'green'} title={PROXY_MESSAGES.submittedTitle} role="status" {...close}>
      {PROXY_MESSAGES.submitted(users, successes, failures)}
    </Alert>
  );
}

/** The results grouped by user, in filing order: each user's row holds one result per role block. */
function byUser(results: readonly ProxyUserResult[]): ProxyUserResult[][] {
  const rows = new Map<number, ProxyUserResult[]>();
  for (const r of [...results].sort((a, b) => a.requestNum - b.requestNum)) {
    rows.set(r.portalUserId, [...(rows.get(r.portalUserId) ?? []), r]);
  }
  return [...rows.values()];
}

/**
 * A running or finished batch (001 §2.7 step 3 with per-user results): a progress bar, each user's row with
 * one result per role block as it lands, the spec's summary alert at the end, and 'Submit Another Request'.
 */
export function BatchProgress({ batch, onAnother }: { batch: ProxyBatchDetail; onAnother: () => void }) {
  const total = batch.summary.totalRequests;
  const running = batch.status === 'RUNNING';
  const percent = total ? Math.round((batch.processed / total) * 100) : 100;
  const several = batch.accessControls.length > 1;
  return (
    <Stack gap="md">
      {!running && <SummaryAlert batch={batch} />}
      <Paper withBorder p="md" component="section" aria-labelledby="proxy-progress-title">
        <Stack gap="sm">
          <Title order={2} id="proxy-progress-title">
            Selected users and results
          </Title>
          <Text size="sm" role="status" aria-live="polite">
            {running ? 'Submitting' : 'Processed'} {batch.processed} of {total} {several ? 'requests' : 'users'}
          </Text>
          <Progress
            value={percent}
            animated={running}
            aria-label={several ? 'Submitted requests' : 'Submitted users'}
            size="lg"
          />
          <Stack component="ol" gap={4} pl="lg" m={0} aria-label="Per-user results">
            {byUser(batch.results).map((row) => {
              const u = row[0]!;
              return (
                // An e-mail address has no spaces: it wraps anywhere rather than widen a phone's page.
                <Text component="li" size="sm" key={u.portalUserId} style={{ overflowWrap: 'anywhere' }}>
                  {u.firstName} {u.lastName} ({u.email})
                  {row.map((r) => {
                    const t = resultText(r);
                    const role = batch.accessControls[r.blockNum - 1]?.roleName;
                    return (
                      <span key={r.requestNum} data-block={r.blockNum}>
                        {' '}
                        {several && role ? `${role}: ` : ''}
                        <Badge color={t.color} variant="light" size="sm">
                          {t.label}
                        </Badge>
                        {t.note && <span> {t.note}</span>}
                      </span>
                    );
                  })}
                </Text>
              );
            })}
          </Stack>
        </Stack>
      </Paper>
      {!running && (
        <Group>
          <Button onClick={onAnother}>Submit Another Request</Button>
        </Group>
      )}
    </Stack>
  );
}
