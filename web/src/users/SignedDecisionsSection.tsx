import { Paper, Text, Title } from '@mantine/core';
import { SIGNATURE_TEXTS, type UserDetail } from '@portal/contract';
import { SignatureManifest, signaturesOf } from '../shared/signature/SignatureManifest';

/**
 * The Account tab's signed decisions (docs/decisions.md "Electronic signatures"; 21 CFR Part 11 §11.50): with
 * signatures on, the status changes and access or portal-role edits signed on this user detail, newest first,
 * each with what was signed, who signed, when, the meaning and whether the record still matches. Nothing when
 * the detail carries none (signatures off: the spec's screen).
 */
export function SignedDecisionsSection({ user }: { user: UserDetail }) {
  if (signaturesOf(user).length === 0) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="user-signatures-heading">
      <Title order={2} mb="xs" id="user-signatures-heading">
        {SIGNATURE_TEXTS.signedDecisions}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {SIGNATURE_TEXTS.signedDecisionsNote}
      </Text>
      <SignatureManifest view={user} withAction />
    </Paper>
  );
}
