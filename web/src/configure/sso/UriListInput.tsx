import { Button, Fieldset, Group, Input, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { URI_LISTS, type SsoClientValues, type UriListName } from './ssoClientValues';

/**
 * An editable list of URIs (issue 22: redirect and post-logout redirect URIs): one labelled field per entry
 * ('Redirect URI 2'), 'Remove' beside each while more than the minimum remain, and 'Add' up to the maximum.
 * Errors of one entry show under it, errors of the whole list under the list.
 */
export function UriListInput({
  form,
  name,
  readOnly,
  description,
}: {
  form: UseFormReturnType<SsoClientValues>;
  name: UriListName;
  readOnly: boolean;
  description: string;
}) {
  const { label, item, min, max } = URI_LISTS[name];
  const values = form.values[name];
  const listError = form.errors[name];
  return (
    <Fieldset legend={label} variant="unstyled">
      <Stack gap="xs">
        <Input.Description>{description}</Input.Description>
        {values.map((_, i) => (
          <Group key={i} align="flex-end" wrap="nowrap" gap="xs">
            <TextInput
              flex={1}
              label={`${item} ${i + 1}`}
              type="url"
              readOnly={readOnly}
              required={min > 0 && i < min}
              {...form.getInputProps(`${name}.${i}`)}
            />
            {!readOnly && values.length > min && (
              <Button
                variant="subtle"
                color="red"
                aria-label={`Remove ${item} ${i + 1}`}
                onClick={() => form.removeListItem(name, i)}
                mb={form.errors[`${name}.${i}`] ? 24 : 0}
              >
                Remove
              </Button>
            )}
          </Group>
        ))}
        {listError && <Input.Error>{listError}</Input.Error>}
        {!readOnly && values.length < max && (
          <Group>
            <Button variant="light" size="compact-sm" onClick={() => form.insertListItem(name, '')}>
              Add {item}
            </Button>
          </Group>
        )}
      </Stack>
    </Fieldset>
  );
}
