import { Button, Group, Modal, Text } from '@mantine/core';
import { MESSAGES } from '@portal/contract';
import { useCallback, useEffect, useRef } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router-dom';

/**
 * Guards a page with unsaved changes (000 §4 Unsaved changes): any in-app navigation away opens the
 * 'Unsaved Changes' dialog ('Abandon Changes' / 'Go Back'); closing or reloading the tab asks the browser's
 * own question. `release()` lets a successful save navigate away without asking. `text` is the dialog's
 * sentence where a screen words it otherwise (001 §2.10).
 */
export function useUnsavedChanges(dirty: boolean, text: string = MESSAGES.unsavedChanges.text) {
  const dirtyRef = useRef(dirty);
  const releasedRef = useRef(false);
  dirtyRef.current = dirty;

  const blocker = useBlocker(
    useCallback<BlockerFunction>(
      ({ currentLocation, nextLocation }) =>
        dirtyRef.current &&
        !releasedRef.current &&
        (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
      [],
    ),
  );

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (releasedRef.current) return;
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const release = useCallback(() => {
    releasedRef.current = true;
  }, []);

  const dialog = (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title={MESSAGES.unsavedChanges.title}
      centered
    >
      <Text mb="lg">{text}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
          {MESSAGES.unsavedChanges.goBack}
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          {MESSAGES.unsavedChanges.abandon}
        </Button>
      </Group>
    </Modal>
  );

  return { dialog, release };
}
