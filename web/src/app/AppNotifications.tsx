import { Notifications } from '@mantine/notifications';
import '@mantine/notifications/styles.css';

/**
 * Where `notifications.show` messages appear. Loaded after the first paint (App.tsx) so the sign-in page does
 * not wait for it (issue 14); a message shown before it mounts waits in the notifications store. Hovering a
 * message holds only that one's auto-close timer (Mantine 9 would hold every visible message's).
 */
export function AppNotifications() {
  return <Notifications position="top-right" autoClose={7500} pauseResetOnHover="notification" />;
}
