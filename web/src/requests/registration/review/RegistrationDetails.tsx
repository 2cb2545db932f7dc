import { Paper, SimpleGrid, Stack } from '@mantine/core';
import { REGISTRATION_STATUS_LABELS, type Registration, type System } from '@portal/contract';
import { formatDateTime, orMissing } from '../../../shared/format';
import { RequestedAccess } from '../../shared/review/RequestedAccess';
import { ReviewItem as Item } from '../../shared/review/ReviewShell';
import { SummaryHeading, WorkflowLink } from '../../shared/review/ReviewSummaryParts';

/** 001 §4: a status the screen does not know reads as UNKNOWN. */
export const registrationStatusLabel = (status: string) =>
  (REGISTRATION_STATUS_LABELS as Record<string, string>)[status] ?? 'Unknown';

const phoneText = (phone: string | null | undefined, ext: string | null | undefined) =>
  phone ? `${phone}${ext ? ` ext. ${ext}` : ''}` : orMissing(phone);

/**
 * The requested registration data of Review Pending User (001 §2.4, §3 Registration): the person, who filed it
 * (the visitor, or a proxy with the person completing the form), dates, status, the requested role blocks and
 * the requester's comments, all read-only.
 */
export function RegistrationDetails({ registration: r, systems }: { registration: Registration; systems?: System[] }) {
  return (
    <Stack gap="md">
      <Paper withBorder p="md" component="section" aria-labelledby="registration-heading">
        <SummaryHeading title="Registration" status={registrationStatusLabel(r.registrationStatus)} mb="sm" />
        <SimpleGrid component="dl" cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm" m={0}>
          <Item label="Name">
            {r.firstName} {r.lastName}
          </Item>
          <Item label="Email">{orMissing(r.email)}</Item>
          <Item label="Phone">{phoneText(r.phoneNumber, r.phoneExtension)}</Item>
          <Item label="Job Title">{orMissing(r.jobTitle)}</Item>
          <Item label="Organization">{orMissing(r.organizationName)}</Item>
          <Item label="Submitted By">
            {r.isProxy ? `Proxy Requester: ${orMissing(r.proxyName)}` : 'Self (public form)'}
          </Item>
          {r.isProxy && (
            <>
              <Item label="Proxy Email">{orMissing(r.proxyEmail)}</Item>
              <Item label="Proxy Phone">{phoneText(r.proxyPhone, r.proxyPhoneExt)}</Item>
              <Item label="Person Completing This Form">
                {orMissing(r.personCompletingThisFormFullName)}
                {r.personCompletingThisFormEmail && ` <${r.personCompletingThisFormEmail}>`}
                {r.personCompletingThisFormPhoneNumber &&
                  `, ${phoneText(r.personCompletingThisFormPhoneNumber, r.personCompletingThisFormPhoneExtension)}`}
              </Item>
            </>
          )}
          <Item label="Date Submitted">{formatDateTime(r.sysdat)}</Item>
          <Item label="Date Modified">{formatDateTime(r.dchng)}</Item>
          <Item label="Last Modified By">{orMissing(r.lastModifiedBy)}</Item>
        </SimpleGrid>
        <WorkflowLink url={r.workflowUrl} mt="md" display="block" />
      </Paper>
      <RequestedAccess
        accessControls={r.accessControls}
        requesterComments={r.requesterComments}
        systems={systems}
        emptyText="No access blocks in this registration."
      />
    </Stack>
  );
}
