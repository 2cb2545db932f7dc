import { Alert, Badge, Paper, Stack, Text, Title } from '@mantine/core';
import { ACCESS_REVIEW_MESSAGES, SIGNATURE_TEXTS, type AccessReviewDecisionResult } from '@portal/contract';
import { SignatureManifest } from '../shared/signature/SignatureManifest';

/** A result's message: the contract's text, also when the server names it by its key ('changedSinceSnapshot'). */
export function resultMessage(message: string | null): string | null {
  const known = (ACCESS_REVIEW_MESSAGES as Record<string, unknown>)[message ?? ''];
  return typeof known === 'string' ? known : message;
}

/** What the page knew of each item when it decided (its name), by item id. */
export type ItemNames = ReadonlyMap<number, string>;

/**
 * The answer of a bulk decision, like a proxy batch's per-user results (issue 25): a summary ('N decisions
 * saved', and how many were refused), then one line per item tried: Saved or Refused with the reason, and the
 * note of an item that changed since the snapshot. Items decided by filter that were not on the page are
 * named by their number. A signed decision shows its one signature, and its refused items as 'Signed, not
 * applied'.
 */
export function DecisionResults({
  result,
  decision,
  names,
  onDismiss,
  signed = false,
}: {
  /** The decision was signed once for all its items (an item not applied: 'Signed, not applied'). */
  signed?: boolean;
  result: AccessReviewDecisionResult;
  decision: 'KEEP' | 'REMOVE';
  names: ItemNames;
  onDismiss: () => void;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="decision-results-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="decision-results-title">
          Results of {decision === 'KEEP' ? 'Keep' : 'Remove'}
        </Title>
        <Alert
          color={result.refused ? 'yellow' : 'green'}
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss results"
          onClose={onDismiss}
        >
          {ACCESS_REVIEW_MESSAGES.decided(result.decided)}
          {result.refused > 0 && `, ${result.refused} refused`}.
        </Alert>
        <SignatureManifest view={result} />
        <Stack component="ol" gap={4} pl="lg" m={0} aria-label="Per-item results">
          {result.results.map((r) => (
            <Text component="li" size="sm" key={r.itemId}>
              {names.get(r.itemId) ?? `Item ${r.itemId}`}{' '}
              <Badge color={r.ok ? 'green' : 'red'} variant="light" size="sm" tt="none">
                {r.ok ? 'Saved' : signed ? SIGNATURE_TEXTS.notApplied : 'Refused'}
              </Badge>
              {r.message && <span> {resultMessage(r.message)}</span>}
            </Text>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
