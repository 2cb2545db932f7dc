import { Checkbox, FileInput, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { formatFileSize, type DashboardItem, type DashboardUploadLimits } from '@portal/contract';
import { fileLabel, type ItemValues } from './itemForm';

/** What is stored now, beside a file field. */
function StoredFile({ text }: { text: string }) {
  return (
    <Text size="sm" c="dimmed" data-testid="stored-file">
      {text}
    </Text>
  );
}

/**
 * The upload fields of the item editor (issue 23): a Download's file or an eLearning's package (.zip with an
 * index.html or story.html at its root), what is stored now and that a new choice replaces it; the card's
 * optional picture, whether one is stored and 'Remove picture'. The configured limits are named beside them.
 */
export function ItemFileFields({
  form,
  item,
  limits,
}: {
  form: UseFormReturnType<ItemValues>;
  item: DashboardItem | null;
  limits: DashboardUploadLimits | undefined;
}) {
  const { kind } = form.values;
  const stored = item && item.kind === kind ? item.file : null;
  const max = kind === 'ELEARNING' ? limits?.maxPackageBytes : limits?.maxFileBytes;
  const fileHelp =
    kind === 'ELEARNING'
      ? 'A .zip package with an index.html or story.html file in its root folder; it opens in a new tab.'
      : 'Any file; it is downloaded as it was uploaded.';
  return (
    <Stack gap="md">
      {kind !== 'LINK' && (
        <Stack gap={4}>
          <FileInput
            label={stored ? `Replace ${fileLabel(kind).toLowerCase()} (optional)` : fileLabel(kind)}
            description={`${fileHelp}${max ? ` At most ${formatFileSize(max)}.` : ''}`}
            placeholder={stored ? 'Keep the current one' : 'Choose a file'}
            accept={kind === 'ELEARNING' ? '.zip,application/zip' : undefined}
            clearable
            required={!stored}
            withAsterisk={false}
            {...form.getInputProps('file')}
          />
          {stored && <StoredFile text={`Current: ${stored.name} (${formatFileSize(stored.size)})`} />}
        </Stack>
      )}
      <Stack gap={4}>
        <FileInput
          label="Picture (optional)"
          description={`An image shown on the card; its alt text is the title.${limits ? ` At most ${formatFileSize(limits.maxImageBytes)}.` : ''}`}
          placeholder={item?.hasImage && !form.values.removeImage ? 'Keep the current picture' : 'Choose an image'}
          accept="image/*"
          clearable
          {...form.getInputProps('image')}
        />
        {item?.hasImage && (
          <>
            <StoredFile text="Current: a picture is stored (see the preview); a new choice replaces it." />
            <Checkbox label="Remove picture" {...form.getInputProps('removeImage', { type: 'checkbox' })} />
          </>
        )}
      </Stack>
    </Stack>
  );
}
