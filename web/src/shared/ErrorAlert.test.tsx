/**
 * The page-level message box's timing (001 §9: alerts close after 7,500 ms by default, the proxy's after
 * 10,000 ms; WCAG 2.2.1): success and information messages close by themselves, not while the pointer is on
 * them or focus is inside them, and errors stay until closed. Fake timers stand in for the wait.
 */
import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MessageAlert, type PageMessage } from './ErrorAlert';
import { theme } from './theme/theme';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function show(message: PageMessage, props: { autoCloseMs?: number } = {}) {
  const onClose = vi.fn();
  render(
    <MantineProvider theme={theme}>
      <MessageAlert message={message} onClose={onClose} {...props} />
    </MantineProvider>,
  );
  return onClose;
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('MessageAlert closing by itself (001 §9)', () => {
  it.each(['success', 'info'] as const)('closes a %s message after 7,500 ms', (kind) => {
    const onClose = show({ kind, text: 'Saved the thing' });
    advance(7_499);
    expect(screen.getByText('Saved the thing')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    advance(1);
    expect(screen.queryByText('Saved the thing')).not.toBeInTheDocument();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('takes another delay where the spec gives one (the proxy outcomes: 10,000 ms)', () => {
    show({ kind: 'success', text: 'Batch done' }, { autoCloseMs: 10_000 });
    advance(9_999);
    expect(screen.getByText('Batch done')).toBeInTheDocument();
    advance(1);
    expect(screen.queryByText('Batch done')).not.toBeInTheDocument();
  });

  it('waits while the pointer is on it, then closes after the time that was left', () => {
    const onClose = show({ kind: 'success', text: 'Hover me' });
    advance(5_000);
    fireEvent.mouseEnter(screen.getByRole('status'));
    advance(60_000);
    expect(screen.getByText('Hover me')).toBeInTheDocument();
    fireEvent.mouseLeave(screen.getByRole('status'));
    advance(2_499);
    expect(screen.getByText('Hover me')).toBeInTheDocument();
    advance(1);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('waits while focus is inside it', () => {
    show({ kind: 'info', text: 'Focus me' });
    const close = screen.getByRole('button', { name: 'Dismiss message' });
    act(() => close.focus());
    advance(60_000);
    expect(screen.getByText('Focus me')).toBeInTheDocument();
    act(() => close.blur());
    advance(7_500);
    expect(screen.queryByText('Focus me')).not.toBeInTheDocument();
  });

  it('keeps an error until it is closed (WCAG 2.2.1)', () => {
    const onClose = show({ kind: 'error', text: 'It failed' });
    advance(600_000);
    expect(screen.getByRole('alert')).toHaveTextContent('It failed');
    expect(onClose).not.toHaveBeenCalled();
  });
});
