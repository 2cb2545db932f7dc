import { notifications } from '@mantine/notifications';

/**
 * An error as a toast. Unlike confirmations, which close after 7,500 ms (001 §9, app/AppNotifications.tsx), an
 * error stays until the person closes it: it asks them to do something, and a reader must not lose it to a
 * timer (WCAG 2.2.1).
 */
export function showErrorToast(title: string, message: string): void {
  notifications.show({ color: 'red', title, message, autoClose: false });
}
