import { Alert, Button, List } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { ALERT_AUTO_CLOSE_MS, useSelfClosing } from './useSelfClosing';

export interface PageMessage {
  kind: 'error' | 'info' | 'success' | 'warning';
  text: string;
  details?: string[];
}

const COLORS = { error: 'red', info: 'blue', success: 'green', warning: 'yellow' } as const;
const TITLES = { error: 'Error', info: 'Information', success: 'Success', warning: 'Warning' } as const;

/** Kinds that close by themselves: errors and warnings ask for something and stay until closed. */
const CLOSES_ITSELF = new Set<PageMessage['kind']>(['success', 'info']);

/**
 * One page-level message box. Errors are announced (role=alert) and scrolled into view 300 ms after they
 * appear (000 §9 Scroll-to-top after failed save) and stay until closed. Success and information messages close
 * by themselves after `autoCloseMs` (001 §9: 7,500 ms by default), calling `onClose`, but not while the pointer
 * is on them or focus is inside them (useSelfClosing).
 */
export function MessageAlert({
  message,
  onClose,
  autoCloseMs = ALERT_AUTO_CLOSE_MS,
  children,
}: {
  message: PageMessage | null;
  onClose?: () => void;
  autoCloseMs?: number;
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message?.kind !== 'error') return;
    const timer = setTimeout(() => ref.current?.scrollIntoView({ behavior: 'smooth', block: 'center' }), 300);
    return () => clearTimeout(timer);
  }, [message]);
  const key = message ? [message.kind, message.text, ...(message.details ?? [])].join('\u0000') : null;
  const { shown, pauseProps } = useSelfClosing(key, !!message && CLOSES_ITSELF.has(message.kind), autoCloseMs, onClose);

  if (!message || !shown) return null;
  return (
    <Alert
      ref={ref}
      color={COLORS[message.kind]}
      title={TITLES[message.kind]}
      role={message.kind === 'error' ? 'alert' : 'status'}
      withCloseButton={!!onClose}
      closeButtonLabel="Dismiss message"
      onClose={onClose}
      {...pauseProps}
      mb="md"
    >
      {message.text}
      {message.details && message.details.length > 0 && (
        <List size="sm" mt="xs">
          {message.details.map((d) => (
            <List.Item key={d}>{d}</List.Item>
          ))}
        </List>
      )}
      {children}
    </Alert>
  );
}

/** A load failure with a retry button. */
export function LoadError({ text, onRetry }: { text: string; onRetry?: () => void }) {
  return (
    <Alert color="red" title="Error" role="alert" mb="md">
      {text}
      {onRetry && (
        <Button variant="light" color="red" size="compact-sm" ml="sm" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Alert>
  );
}
