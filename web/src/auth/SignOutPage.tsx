import { Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { usePageTitle } from '../shared/usePageTitle';
import { useSignOut } from '../lib/useSignOut';

/** /app/signout: signs the user out as soon as it loads (000 §2 Routes, §4 Sign-out). */
export function SignOutPage() {
  usePageTitle('Sign Out');
  const signOut = useSignOut();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOut();
  }, [signOut]);

  return (
    <Center h="100vh">
      <Stack align="center" gap="xs" role="status">
        <Loader />
        <Text>Signing out…</Text>
      </Stack>
    </Center>
  );
}
