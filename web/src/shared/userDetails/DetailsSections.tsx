import { Paper, Select, SimpleGrid, Stack, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useId } from 'react';
import { useCountries, useStates } from '../referenceData';
import { DETAILS_FIELD_LABELS, DETAILS_LIMITS, type DetailsTextField, type DetailsValues } from './detailsFields';
import { FormTextField } from './FormTextField';

/**
 * The Details sections of a user (000 §2 User detail and Profile): Organization Details (organization name,
 * job title, phone number, phone extension) and Mailing Address (address lines, city, country, the chosen
 * country's states, postal code). Changing the country clears the state and loads the chosen country's
 * states (000 §4 Country change). Every field is optional. `form` is any form holding the Details values.
 */
export function DetailsSections<T extends DetailsValues>({
  form,
  readOnly,
}: {
  form: UseFormReturnType<T>;
  readOnly: boolean;
}) {
  const f = form as unknown as UseFormReturnType<DetailsValues>;
  const id = useId();
  const countries = useCountries();
  const states = useStates(f.values.country);
  const text = (name: DetailsTextField) => (
    <FormTextField
      form={f}
      name={name}
      label={DETAILS_FIELD_LABELS[name]}
      maxLength={DETAILS_LIMITS[name]}
      readOnly={readOnly}
    />
  );
  return (
    <Stack gap="lg">
      <Paper withBorder p="md" component="section" aria-labelledby={`${id}-org`}>
        <Title order={2} mb="sm" id={`${id}-org`}>
          Organization Details
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {text('organizationName')}
          {text('jobTitle')}
          {text('phoneNumber')}
          {text('phoneExtension')}
        </SimpleGrid>
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby={`${id}-address`}>
        <Title order={2} mb="sm" id={`${id}-address`}>
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
            {...f.getInputProps('country')}
            onChange={(country) => {
              f.setFieldValue('country', country);
              f.setFieldValue('state', null);
            }}
          />
          <Select
            label="State (optional)"
            searchable
            clearable
            readOnly={readOnly}
            disabled={!f.values.country}
            data={(states.data ?? []).map((s) => ({ value: s.state, label: s.stateName }))}
            {...f.getInputProps('state')}
          />
          {text('postalCode')}
        </SimpleGrid>
      </Paper>
    </Stack>
  );
}
