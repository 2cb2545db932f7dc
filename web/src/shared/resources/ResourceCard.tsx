import { Anchor, Badge, Card, Group, Image, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { formatFileSize, type DashboardItem, type DashboardItemKind } from '@portal/contract';
import type { MouseEvent } from 'react';
import { showErrorToast } from '../errorToast';
import { downloadSecureFile, isSecurePath, useDisplayableUrl } from './secureFiles';

/** How each kind is named on its card. */
export const ITEM_KIND_LABELS: Record<DashboardItemKind, string> = {
  LINK: 'Link',
  DOWNLOAD: 'Download',
  ELEARNING: 'eLearning',
};

/** What a card shows of an item; `imageSrc` overrides the stored picture (the editor's preview of a new one). */
export type ResourceCardItem = Pick<DashboardItem, 'kind' | 'title' | 'description' | 'openUrl' | 'file'> & {
  imageSrc: string | null;
};

/** The download's failure (not worded by the spec; in its style). */
export const DOWNLOAD_FAILED = 'Unable to download the file.';

/**
 * One dashboard item as a card (issue 23 Screens; 000 §6, §9): the picture (its alt text is the title), the
 * title as the link, the description, and the kind. A Link and an eLearning open in a new tab with
 * rel="noopener noreferrer"; a Download downloads (its size in B/KB/MB/GB/TB, base 1024, 000 §9). A picture or
 * file under /rest/secure is fetched with the call's headers (secureFiles.ts).
 */
export function ResourceCard({ item }: { item: ResourceCardItem }) {
  const download = item.kind === 'DOWNLOAD';
  const size = item.file ? formatFileSize(item.file.size) : null;
  const imageSrc = useDisplayableUrl(item.imageSrc);
  const onDownload = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isSecurePath(item.openUrl)) return;
    event.preventDefault();
    downloadSecureFile(item.openUrl, item.file?.name ?? item.title).catch(() =>
      showErrorToast('Error', `${DOWNLOAD_FAILED} (${item.title})`),
    );
  };
  return (
    <Card withBorder radius="md" padding="sm" component="li" style={{ listStyle: 'none' }} data-testid="resource-card">
      {item.imageSrc && (
        <Card.Section mb="sm">
          {imageSrc ? (
            <Image src={imageSrc} alt={item.title} h={140} w="100%" fit="cover" />
          ) : (
            <Skeleton h={140} radius={0} animate={false} />
          )}
        </Card.Section>
      )}
      <Stack gap={6}>
        {download ? (
          <Anchor href={item.openUrl} download={item.file?.name ?? true} fw={600} onClick={onDownload}>
            {item.title} <VisuallyHidden>{`(download${size ? `, ${size}` : ''})`}</VisuallyHidden>
          </Anchor>
        ) : (
          <Anchor href={item.openUrl} target="_blank" rel="noopener noreferrer" fw={600}>
            {item.title} <span aria-hidden>↗</span>
            <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
          </Anchor>
        )}
        {item.description && (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {item.description}
          </Text>
        )}
        <Group gap="xs" aria-hidden>
          <Badge variant="light" size="sm">
            {ITEM_KIND_LABELS[item.kind]}
          </Badge>
          {download && size && (
            <Text size="xs" c="dimmed">
              {size}
            </Text>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
