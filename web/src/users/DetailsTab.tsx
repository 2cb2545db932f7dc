import { Paper, Select, SimpleGrid, Stack, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useCountries, useStates } from '../shared/referenceData';
import { UserTextField } from './UserFields';
import type { UserFormValues } from './userForm';

/**
 * Details tab (000 §2 User detail): Organization Details and Mailing Address. Changing the country clears the
 * state and loads the chosen country's states (000 §4 Country change).
 */
export function DetailsTab({ form, readOnly }: { form: UseFormReturnType<UserFormValues>; readOnly: boolean }) {
  const countries = useCountries();
  const states = useStates(form.values.country);
  const text = (name: Parameters<typeof UserTextField>[0]['name']) => (
    <UserTextField form={form} name={name} readOnly={readOnly} />
  );
  return (
    <Stack gap="lg">
      <Paper withBorder p="md" component="section" aria-labelledby="user-org-heading">
        <Title order={2} mb="sm" id="user-org-heading">
          Organization Details
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {text('organizationName')}
          {text('jobTitle')}
          {text('phoneNumber')}
          {text('phoneExtension')}
        </SimpleGrid>
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="user-address-heading">
        <Title order={2} mb="sm" id="user-address-heading">
          Mailing Address
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {text('address1')}
          {text('address2')}
          {text('city')}
          <Select
            label="Country (optional)"
            searchable
            clearable
            readOnly={readOnly}
            data={(countries.data ?? []).map((c) => ({ value: c.country, label: c.countryName }))}
            {...form.getInputProps('country')}
            onChange={(country) => {
              form.setFieldValue('country', country);
              form.setFieldValue('state', null);
            }}
          />
          <Select
            label="State (optional)"
            searchable
            clearable
            readOnly={readOnly}
            disabled={!form.values.country}
            data={(states.data ?? []).map((s) => ({ value: s.state, label: s.stateName }))}
            {...form.getInputProps('state')}
          />
          {text('postalCode')}
        </SimpleGrid>
      </Paper>
    </Stack>
  );
}
