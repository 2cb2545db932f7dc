import { Alert, Button, Group, List, Loader, Modal, Stack, Text } from '@mantine/core';

export interface InUseSection {
  /** The sentence stating how many reference the record, e.g. '3 active users reference this portal role.' */
  summary: string;
  items: string[];
  /** True when references of this kind prevent the deletion (the server refuses it too). */
  blocking?: boolean;
}

const SHOWN = 10;

/**
 * The delete confirmation of portal roles, study roles and systems (001 §2.12, §4: idle, confirm (loads the
 * references), deleting, idle). 'Delete' is a deactivation. It lists what references the record; kinds that
 * block the deletion disable the button and say why.
 */
export function InUseDialog({
  opened,
  title,
  loading,
  loadError,
  sections,
  noneText,
  confirmLabel,
  deleting,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  loading: boolean;
  loadError: string | null;
  sections: InUseSection[];
  noneText: string;
  confirmLabel: string;
  deleting: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const used = sections.filter((s) => s.items.length > 0);
  const blocked = used.some((s) => s.blocking);
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size="lg">
      <Stack gap="sm">
        {loading && (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">Looking for references…</Text>
          </Group>
        )}
        {loadError && (
          <Alert color="red" title="Error" role="alert">
            {loadError}
          </Alert>
        )}
        {!loading && !loadError && used.length === 0 && <Text data-testid="in-use-summary">{noneText}</Text>}
        {!loading &&
          !loadError &&
          used.map((s) => (
            <div key={s.summary} data-testid="in-use-summary">
              <Text fw={600}>{s.summary}</Text>
              <List size="sm" mt={4}>
                {s.items.slice(0, SHOWN).map((item) => (
                  <List.Item key={item}>{item}</List.Item>
                ))}
                {s.items.length > SHOWN && <List.Item>and {s.items.length - SHOWN} more</List.Item>}
              </List>
            </div>
          ))}
        {blocked && (
          <Alert color="yellow" title="Cannot be deleted yet" role="status">
            Remove the blocking references above first; the users&apos; existing records are kept either way.
          </Alert>
        )}
        {!loading && !loadError && !blocked && used.length > 0 && (
          <Text size="sm" c="dimmed">
            Deleting deactivates the record: existing records that reference it are kept, and it is no longer offered
            for new requests.
          </Text>
        )}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose} disabled={deleting} data-autofocus>
            Cancel
          </Button>
          <Button color="red" onClick={onConfirm} loading={deleting} disabled={loading || !!loadError || blocked}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
