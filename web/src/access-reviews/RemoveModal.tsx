import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ACCESS_REVIEW_LIMITS, ACCESS_REVIEW_MESSAGES } from '@portal/contract';
import { useEffect, useState } from 'react';
import { CountedTextarea } from '../shared/CountedText';

const itemsText = (n: number) => `${n} item${n === 1 ? '' : 's'}`;

/**
 * The Remove confirmation (issue 25: 'a comment required for Remove'): how many items will lose access when the
 * campaign closes, and the reviewer's comment (required, ACCESS_REVIEW_LIMITS.comment characters, counted).
 * `error` is the server's refusal of the comment (422 `comment`).
 */
export function RemoveModal({
  opened,
  count,
  pending,
  error,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  count: number;
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: (comment: string) => void;
}) {
  const [comment, setComment] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (opened) {
      setComment('');
      setTouched(false);
    }
  }, [opened]);
  const empty = comment.trim() === '';
  const submit = () => {
    setTouched(true);
    if (!empty) onConfirm(comment.trim());
  };
  return (
    <Modal opened={opened} onClose={onCancel} title="Remove access" centered>
      <Stack gap="md">
        <Alert color="red" variant="light" role="note">
          {itemsText(count)} will lose access when the campaign closes, unless the decision is changed before then.
          Access that changed since the review started is never removed.
        </Alert>
        <CountedTextarea
          label="Comment"
          required
          data-autofocus
          value={comment}
          maxLength={ACCESS_REVIEW_LIMITS.comment}
          onChange={(e) => setComment(e.currentTarget.value)}
          onBlur={() => setTouched(true)}
          error={error ?? (touched && empty ? ACCESS_REVIEW_MESSAGES.commentRequired : undefined)}
        />
        <Text size="sm" c="dimmed">
          The comment is kept with each decision in the audit trail and the campaign&apos;s decisions file.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button color="red" onClick={submit} loading={pending}>
            Remove access for {itemsText(count)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
