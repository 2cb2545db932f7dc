import { ProfilePage } from '../profile/ProfilePage';
import { NameEmailRequest } from '../requests/profile-change/filing/NameEmailRequest';
import { OutstandingRequestBanner } from '../requests/profile-change/filing/OutstandingRequestBanner';

const profileChange = { NameEmailRequest, OutstandingRequestBanner };

/**
 * The Profile screen (/app/profile) composed with the profile-change request's filing parts: the Account
 * tab's name and email request and the outstanding-request banner (a feature imports no other feature).
 */
export function ProfileScreen() {
  return <ProfilePage profileChange={profileChange} />;
}
