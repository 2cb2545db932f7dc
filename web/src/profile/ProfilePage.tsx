import { Stack, Tabs, Title } from '@mantine/core';
import { MESSAGES, type Profile } from '@portal/contract';
import type { ComponentType } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '../lib/apiClient';
import { useProfile } from '../lib/sessionQueries';
import { PageLoader } from '../shared/PageLoader';
import { LoadError } from '../shared/ErrorAlert';
import { usePageTitle } from '../shared/usePageTitle';
import { AccessTab } from './AccessTab';
import { AccountTab } from './AccountTabs';
import { ProfileDetailsTab } from './details/ProfileDetailsTab';
import { HistoryTab } from './HistoryTab';
import { SecurityTab } from './security/SecurityTab';

const TABS = {
  account: 'Account',
  details: 'Details',
  access: 'Access',
  history: 'Requests History',
  security: 'Security',
} as const;
type TabKey = keyof typeof TABS;
const isTab = (value: string | null): value is TabKey => !!value && value in TABS;

/**
 * What the profile-change request's filing (requests/profile-change/filing) adds to the profile. A feature
 * imports no other feature, so app/ hands these in (`app/ProfileScreen.tsx`).
 */
export interface ProfileChangeParts {
  /** The Account tab's name and email, filed as a profile-change request. */
  NameEmailRequest: ComponentType<{ profile: Profile }>;
  /** The outstanding-request banner above the tabs. */
  OutstandingRequestBanner: ComponentType;
}

/**
 * Profile /app/profile?tab=account|details|access|history (000 §2 Profile screen), and security: the second
 * sign-in step's methods (issue 37).
 */
export function ProfilePage({ profileChange }: { profileChange: ProfileChangeParts }) {
  const { OutstandingRequestBanner } = profileChange;
  const [search, setSearch] = useSearchParams();
  const requested = search.get('tab');
  const tab: TabKey = isTab(requested) ? requested : 'account';
  usePageTitle(`Profile - ${TABS[tab]}`);
  const profile = useProfile();

  const changeTab = (next: string | null) => {
    if (!isTab(next) || next === tab) return;
    // 000 §2: changing tab replaces the URL with ?tab={tab} and clears all messages.
    setSearch({ tab: next }, { replace: true });
  };

  let body;
  if (profile.data) {
    body = (
      <Tabs value={tab} onChange={changeTab} keepMounted={false}>
        <Tabs.List>
          {Object.entries(TABS).map(([key, label]) => (
            <Tabs.Tab key={key} value={key}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="account" pt="md">
          <AccountTab profile={profile.data} NameEmailRequest={profileChange.NameEmailRequest} />
        </Tabs.Panel>
        <Tabs.Panel value="details" pt="md">
          <ProfileDetailsTab profile={profile.data} />
        </Tabs.Panel>
        <Tabs.Panel value="access" pt="md">
          <AccessTab profile={profile.data} />
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="md">
          <HistoryTab />
        </Tabs.Panel>
        <Tabs.Panel value="security" pt="md">
          <SecurityTab />
        </Tabs.Panel>
      </Tabs>
    );
  } else if (profile.error) {
    // 000 §6: profile loading treats 401 or 403 as not authorized, in 001 §8's words (with the period).
    const denied = profile.error instanceof ApiError && [401, 403].includes(profile.error.status);
    body = (
      <LoadError
        text={denied ? MESSAGES.signIn.profileNotAuthorized : 'Problem loading your profile.'}
        onRetry={denied ? undefined : () => void profile.refetch()}
      />
    );
  } else {
    body = <PageLoader label="Loading your profile" />;
  }

  return (
    <Stack gap="md">
      <Title order={1}>Profile</Title>
      {profile.data && <OutstandingRequestBanner />}
      {body}
    </Stack>
  );
}
