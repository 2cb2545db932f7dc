import { Center, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { request } from '../app/api';
import { usePageTitle } from '../shared/usePageTitle';
import { clearSession } from './session';

/** /app/signout: signs the user out as soon as it loads (000 §2 Routes, §4 Sign-out). */
export function SignOutPage() {
  usePageTitle('Sign Out');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void request('POST', '/rest/secure/token/invalidate', { body: {}, ignoreUnauthorized: true })
      .catch(() => undefined)
      .finally(() => {
        clearSession(queryClient);
        navigate('/', { replace: true });
      });
  }, [navigate, queryClient]);

  return (
    <Center h="100vh">
      <Stack align="center" gap="xs" role="status">
        <Loader />
        <Text>Signing out…</Text>
      </Stack>
    </Center>
  );
}
