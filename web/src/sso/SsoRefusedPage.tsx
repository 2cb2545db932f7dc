import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { ssoRefusalText } from '@portal/contract';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { getXsrfToken } from '../lib/apiClient';
import { paths } from '../lib/paths';
import { useSystems } from '../shared/referenceData';
import { usePageTitle } from '../shared/usePageTitle';
import { useSsoConfig } from '../shared/api/ssoConfig';
import { readRefusal } from './refusal';
import { BusyIndicator } from '../shared/BusyIndicator';

/** The texts of the refusal page (issue 22); the refusal itself is the contract's 000 §8 text. */
export const SSO_REFUSED_TEXTS = {
  title: 'Unable to sign you in',
  requestAccess: (systemName: string) => `Request access to ${systemName}`,
  viewOpenRequest: 'View your open request',
  openRequestNote: (systemName: string) =>
    `You already have an open request that includes ${systemName}; User Support has not resolved it yet.`,
  toDashboard: 'Go to the dashboard',
  toSignIn: 'Go to the sign-in page',
  /** Issue 37 'noSecondFactor': where a second factor is added. */
  toProfile: 'Go to your profile',
} as const;

/**
 * Where a single sign-on is refused (issue 22; 000 §8 Single sign-on) at /app/sso/refused?case=&systemId=
 * &systemName=&openRequestId=: the heading and the case's text (the server's, handed over by the sign-in step,
 * else the contract's with the provider's name the API is configured with, read at run time, or the contract's
 * default name when it cannot be read; an unknown case reads as 'undetermined'), and
 * the ways on. For 'not authorized' with a system, a 'Request access to <system>' button opening the access
 * request form with that system preselected, or, when the person has an open request, the link to it
 * (their Requests History: the app shows own requests there). For 'no second factor' (issue 37), signed in,
 * the way to the profile (where a factor is added). Then the dashboard, or the sign-in page when nobody is
 * signed in. Outside the secure shell: a refusal may come before any sign-in.
 */
export function SsoRefusedPage() {
  usePageTitle(SSO_REFUSED_TEXTS.title);
  const [search] = useSearchParams();
  const refusal = readRefusal(search);
  // The sign-in step hands over the server's text (its configured provider name); a link or a redirect has none.
  const state: unknown = useLocation().state;
  const serverText =
    state && typeof state === 'object' && 'message' in state && typeof state.message === 'string'
      ? state.message
      : null;
  const ssoConfig = useSsoConfig();
  const signedIn = !!getXsrfToken();
  const system = refusal.case === 'notAuthorized' ? refusal.system : null;
  const systems = useSystems();
  const systemName =
    systems.data?.find((s) => s.id === system?.id)?.systemName || system?.systemName || 'the application';

  return (
    <Stack gap="md" py="md" data-testid="sso-refused">
      <Title order={1}>{SSO_REFUSED_TEXTS.title}</Title>
      {serverText === null && ssoConfig.isPending ? (
        <BusyIndicator label="Loading" />
      ) : (
        <Alert color="red" variant="light" role="status">
          {serverText ?? ssoRefusalText(refusal.case, ssoConfig.data?.providerName)}
        </Alert>
      )}
      {system && refusal.openRequestId && (
        <Stack gap={4}>
          <Text>{SSO_REFUSED_TEXTS.openRequestNote(systemName)}</Text>
          <Anchor component={Link} to={paths.app.profile.href('history')}>
            {SSO_REFUSED_TEXTS.viewOpenRequest}
          </Anchor>
        </Stack>
      )}
      {system && !refusal.openRequestId && (
        <Group>
          {/* A long system name wraps on a phone instead of being cut off. */}
          <Button
            component={Link}
            to={paths.app.requestAccess.forSystem(system.id)}
            h="auto"
            mih={36}
            py={8}
            styles={{ label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.4 } }}
          >
            {SSO_REFUSED_TEXTS.requestAccess(systemName)}
          </Button>
        </Group>
      )}
      {signedIn && refusal.case === 'noSecondFactor' && (
        <Anchor component={Link} to={paths.app.profile.href()}>
          {SSO_REFUSED_TEXTS.toProfile}
        </Anchor>
      )}
      <Anchor component={Link} to={signedIn ? paths.app.dashboard.href : paths.signIn.href}>
        {signedIn ? SSO_REFUSED_TEXTS.toDashboard : SSO_REFUSED_TEXTS.toSignIn}
      </Anchor>
    </Stack>
  );
}
