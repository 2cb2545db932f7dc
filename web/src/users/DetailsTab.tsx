import type { UseFormReturnType } from '@mantine/form';
import { DetailsSections } from '../shared/userDetails/DetailsSections';
import type { UserFormValues } from './userForm';

/**
 * Details tab (000 §2 User detail): Organization Details and Mailing Address, the sections the profile's
 * Details tab shows too (shared/userDetails). Changing the country clears the state and loads the chosen
 * country's states (000 §4 Country change).
 */
export function DetailsTab({ form, readOnly }: { form: UseFormReturnType<UserFormValues>; readOnly: boolean }) {
  return <DetailsSections form={form} readOnly={readOnly} />;
}
