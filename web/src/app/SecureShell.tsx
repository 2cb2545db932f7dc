import { ModalsProvider } from '@mantine/modals';
import { SecureLayout } from '../layout/SecureLayout';

/**
 * The secure layout with the modals manager (000 §2 Layouts). Only secure screens open confirmation modals,
 * so `@mantine/modals` loads with this chunk, not with the sign-in page (issue 14: sign-in budget).
 */
export function SecureShell() {
  return (
    <ModalsProvider labels={{ confirm: 'OK', cancel: 'Cancel' }}>
      <SecureLayout />
    </ModalsProvider>
  );
}
