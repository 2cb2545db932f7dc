import { RequestsHistory } from '../shared/history/RequestsHistory';

/**
 * Requests History tab (000 §2 Profile screen, 001 §2.9): the signed-in user's own access, profile-change and
 * registration-by-proxy requests, reviewer comments hidden (shared/history, the user detail shows the same).
 */
export function HistoryTab() {
  return <RequestsHistory subject={{ self: true }} />;
}
