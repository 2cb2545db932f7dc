import { Badge, Group, Stack, Text } from '@mantine/core';
import { SIGNATURE_ACTION_LABELS, SIGNATURE_TEXTS, SignatureViewSchema, type SignatureView } from '@portal/contract';
import { formatDateTime } from '../format';

/**
 * The signatures a view carries (`signatures`, present only when signatures are on), read defensively: an
 * entry of another shape is left out rather than shown wrong. [] when there are none.
 */
export function signaturesOf(view: unknown): SignatureView[] {
  if (typeof view !== 'object' || view === null) return [];
  const list = (view as { signatures?: unknown }).signatures;
  if (!Array.isArray(list)) return [];
  return list.flatMap((s) => {
    const parsed = SignatureViewSchema.safeParse(s);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * The manifestation of a decision's signatures (21 CFR Part 11 §11.50): per signature 'Signed by <name>
 * (<username>) on <date time> — <meaning>' and whether the record still matches what was signed (§11.70). The
 * mismatch is worded and marked, not only coloured. Nothing when the view carries no signatures (the spec's
 * screen). Wraps at any width (a phone's 320 px). `withAction` starts each line with what was signed (for a
 * list of several decisions).
 */
export function SignatureManifest({
  view,
  compact = false,
  withAction = false,
}: {
  view: unknown;
  compact?: boolean;
  withAction?: boolean;
}) {
  const signatures = signaturesOf(view);
  if (signatures.length === 0) return null;
  return (
    <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={SIGNATURE_TEXTS.legend}>
      {signatures.map((s) => (
        <Group key={s.id} component="li" gap={6} wrap="wrap" align="center" style={{ minWidth: 0 }}>
          <Text size={compact ? 'xs' : 'sm'} style={{ overflowWrap: 'anywhere' }}>
            {withAction && `${SIGNATURE_ACTION_LABELS[s.action]}: `}Signed by {s.signerName} ({s.signerUsername}) on{' '}
            {formatDateTime(s.signedAt)} — {s.meaning}
          </Text>
          {s.valid ? (
            <Badge size="sm" variant="light" color="green" style={{ textTransform: 'none' }}>
              {SIGNATURE_TEXTS.matches}
            </Badge>
          ) : (
            <Badge
              size="sm"
              variant="filled"
              color="red"
              style={{ textTransform: 'none' }}
              leftSection={<span aria-hidden>⚠</span>}
            >
              {SIGNATURE_TEXTS.mismatch}
            </Badge>
          )}
        </Group>
      ))}
    </Stack>
  );
}
