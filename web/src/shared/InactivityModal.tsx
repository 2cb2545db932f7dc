import { Button, Group, Modal, Text } from '@mantine/core';
import {
  AUTH_CONSTANTS,
  AUTH_MESSAGES,
  CONSTANTS,
  formatRemaining,
  MESSAGES,
  type TokenRefreshResponse,
} from '@portal/contract';
import { useEffect, useRef, useState } from 'react';
import { secondsRemaining, updateAuthState } from '../lib/authState';
import { refreshToken as refreshOnce } from '../lib/token';
import { useSignOut } from '../lib/useSignOut';

/** GET /rest/secure/token/refresh, tried twice (000 §7, §9 Token refresh attempts). */
async function refreshToken(): Promise<TokenRefreshResponse | null> {
  for (let attempt = 0; attempt < CONSTANTS.tokenRefreshAttempts; attempt++) {
    try {
      const data = await refreshOnce(true);
      if (data) return data;
    } catch {
      // the next attempt, or give up
    }
  }
  return null;
}

/**
 * The inactivity modal (000 §2 Inactivity modal, §4 Session timeout): the countdown from
 * tokenTimeoutInSeconds minus the time since lastSeen, ticking every second. The modal 'Are you still
 * there?' shows under 300 seconds (minutes rounded up above one minute, otherwise seconds); 'Stay Signed
 * In' refreshes the token (two tries; when both fail the user is signed out with 'Please sign in'); under
 * 1 second the user is signed out with 'You have been signed out due to inactivity'.
 */
export function InactivityModal() {
  const signOut = useSignOut();
  const [remaining, setRemaining] = useState(() => secondsRemaining());
  const [refreshing, setRefreshing] = useState(false);
  const signingOut = useRef(false);

  useEffect(() => {
    const tick = () => {
      const left = secondsRemaining();
      setRemaining(left);
      if (left < AUTH_CONSTANTS.signOutBelowSeconds && !signingOut.current) {
        signingOut.current = true;
        void signOut(MESSAGES.signIn.inactivity);
      }
    };
    tick();
    const timer = setInterval(tick, AUTH_CONSTANTS.countdownTickMs);
    return () => clearInterval(timer);
  }, [signOut]);

  const staySignedIn = async () => {
    setRefreshing(true);
    const data = await refreshToken();
    setRefreshing(false);
    if (!data) {
      signingOut.current = true;
      await signOut(MESSAGES.signIn.pleaseSignIn);
      return;
    }
    updateAuthState({ tokenTimeoutInSeconds: data.tokenTimeoutInSeconds, lastSeen: Date.now() });
    setRemaining(secondsRemaining());
  };

  return (
    <Modal
      opened={remaining < CONSTANTS.inactivityWarningSeconds && remaining >= AUTH_CONSTANTS.signOutBelowSeconds}
      onClose={() => void staySignedIn()}
      title={AUTH_MESSAGES.inactivityTitle}
      withCloseButton={false}
      closeOnClickOutside={false}
      centered
      zIndex={1000}
    >
      <Text mb="md" role="timer" data-testid="inactivity-text">
        {AUTH_MESSAGES.inactivityText(formatRemaining(remaining))}
      </Text>
      <Group justify="flex-end">
        <Button onClick={() => void staySignedIn()} loading={refreshing} data-autofocus>
          {AUTH_MESSAGES.staySignedIn}
        </Button>
      </Group>
    </Modal>
  );
}
