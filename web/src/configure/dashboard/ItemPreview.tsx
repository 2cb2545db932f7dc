import { Box, Text } from '@mantine/core';
import type { DashboardItem } from '@portal/contract';
import { ResourceCard } from '../../shared/resources/ResourceCard';
import { useLocalPictureUrl } from '../../shared/resources/secureFiles';
import type { ItemValues } from './itemForm';

/**
 * The card as the dashboard will show it with the editor's values (issue 23 'preview'): the new picture or the
 * stored one, the title, description, kind and, for a download, the size of the new or the stored file. Its
 * link opens what is saved now (a new item's only once it is saved).
 */
export function ItemPreview({ values, item }: { values: ItemValues; item: DashboardItem | null }) {
  const chosenImage = useLocalPictureUrl(values.image);
  const sameKind = item?.kind === values.kind;
  const file = values.file
    ? { name: values.file.name, size: values.file.size, contentType: values.file.type }
    : sameKind
      ? item.file
      : null;
  const imageSrc = chosenImage ?? (values.removeImage ? null : (item?.imageUrl ?? null));
  const openUrl = values.kind === 'LINK' ? values.url.trim() : sameKind ? item.openUrl : '';
  return (
    <Box maw={360}>
      <Box component="ul" p={0} m={0} aria-label="Preview of the card">
        <ResourceCard
          item={{
            kind: values.kind,
            title: values.title.trim() || 'Title',
            description: values.description.trim(),
            openUrl: openUrl || '#',
            file,
            imageSrc,
          }}
        />
      </Box>
      {!item && (
        <Text size="xs" c="dimmed" mt="xs">
          The card opens its link, file or package once the item is saved.
        </Text>
      )}
    </Box>
  );
}
