import { Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { MESSAGES, PROFILE_DETAILS_MESSAGES, type Profile } from '@portal/contract';
import { useState } from 'react';
import { useHasPermissions } from '../../lib/sessionQueries';
import { MessageAlert, type PageMessage } from '../../shared/ErrorAlert';
import { FormActions, resetFormAndMessage } from '../../shared/FormActions';
import { useUnsavedChanges } from '../../shared/UnsavedChanges';
import { DetailsSections } from '../../shared/userDetails/DetailsSections';
import { DETAILS_FIELD_LABELS, type DetailsValues, describeFieldFailure } from '../../shared/userDetails/detailsFields';
import { useUpdateProfileDetails } from './updateProfileDetails';

/** The form's values of a loaded profile (country and state travel as objects, 000 §3 Profile). */
const valuesOf = (p: Profile): DetailsValues => ({
  organizationName: p.organizationName,
  jobTitle: p.jobTitle,
  phoneNumber: p.phoneNumber,
  phoneExtension: p.phoneExtension,
  address1: p.address1,
  address2: p.address2,
  city: p.city,
  country: p.country?.country ?? null,
  state: p.state?.state ?? null,
  postalCode: p.postalCode,
});

/**
 * Profile Details tab (000 §2 Profile screen, User detail's Details fields): the signed-in user edits their
 * Organization Details and Mailing Address and saves them with PUT user_profile_mod (000 §4 Saving: 422 under
 * the fields, 304 'There are no changes to submit.', success 'User Profile Updated'). A new country clears the
 * state (000 §4 Country change); leaving the tab or the page with changes asks first (000 §4 Unsaved changes).
 * Read-only without USER (SET_OWN_PASSWORD alone may not save).
 */
export function ProfileDetailsTab({ profile }: { profile: Profile }) {
  const readOnly = !useHasPermissions('USER');
  const [message, setMessage] = useState<PageMessage | null>(null);
  const form = useForm<DetailsValues>({ initialValues: valuesOf(profile) });
  const guard = useUnsavedChanges(!readOnly && form.isDirty());

  const save = useUpdateProfileDetails({
    mutationConfig: {
      onMutate: () => setMessage(null),
      onSuccess: (res) => {
        if (res.status === 304 || !res.data)
          return setMessage({ kind: 'info', text: PROFILE_DETAILS_MESSAGES.noChanges });
        // The saved values become the form's own: nothing is unsaved any more.
        form.setInitialValues(valuesOf(res.data));
        form.setValues(valuesOf(res.data));
        form.resetDirty(valuesOf(res.data));
        notifications.show({ color: 'green', message: PROFILE_DETAILS_MESSAGES.updated });
      },
      onError: (error) => {
        const failure = describeFieldFailure(error, PROFILE_DETAILS_MESSAGES.updateFailed, DETAILS_FIELD_LABELS);
        form.setErrors(failure.fieldErrors);
        setMessage(failure.message);
      },
    },
  });

  const submit = form.onSubmit((values) => save.mutate({ ...profile, ...values }));
  return (
    <form onSubmit={submit} noValidate>
      {guard.dialog}
      <MessageAlert message={message} onClose={() => setMessage(null)} />
      {!readOnly && (
        <Text size="sm" c="dimmed" mb="sm">
          {MESSAGES.formNote}
        </Text>
      )}
      <DetailsSections form={form} readOnly={readOnly} />
      {!readOnly && (
        <FormActions
          label="Save Changes"
          pending={save.isPending}
          onReset={resetFormAndMessage(form, setMessage)}
          mt="lg"
        />
      )}
    </form>
  );
}
