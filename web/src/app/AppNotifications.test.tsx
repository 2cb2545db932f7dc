/**
 * Toasts' timing (001 §9: 7,500 ms by default; WCAG 2.2.1): a confirmation closes by itself, an error toast
 * stays until closed. Fake timers stand in for the wait.
 */
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { showErrorToast } from '../shared/errorToast';
import { theme } from '../shared/theme/theme';
import { AppNotifications } from './AppNotifications';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('AppNotifications', () => {
  it('closes a confirmation after 7,500 ms and keeps an error toast until it is closed', () => {
    render(
      <MantineProvider theme={theme}>
        <AppNotifications />
      </MantineProvider>,
    );
    act(() => {
      notifications.show({ color: 'green', title: 'Saved', message: 'It was saved' });
      showErrorToast('Error', 'It failed');
    });
    // In steps: each closing schedules its leave transition's timer once React has rendered the last step.
    for (let i = 0; i < 10; i++) act(() => vi.advanceTimersByTime(60_000));
    expect(screen.queryByText('It was saved')).not.toBeInTheDocument();
    expect(screen.getByText('It failed')).toBeInTheDocument();
  });
});
