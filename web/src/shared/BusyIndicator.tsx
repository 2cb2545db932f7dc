import { Loader, type LoaderProps } from '@mantine/core';

/**
 * A small spinner that names what is being waited for. Mantine's Loader is a `span`, and a `span` may not
 * carry `aria-label` without a role (WCAG 4.1.2, axe `aria-prohibited-attr`), so the name rides on a
 * `status` role, which screen readers also announce politely.
 */
export function BusyIndicator({ label, size = 'sm' }: { label: string; size?: LoaderProps['size'] }) {
  return <Loader size={size} role="status" aria-label={label} />;
}
