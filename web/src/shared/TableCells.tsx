import { Anchor, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { MISSING } from './format';

/**
 * Cells that keep a table row narrow (issue 9: no sideways scrolling at 1280 px, the status column in view):
 * a date and time that wrap between the two, and long free text clamped to two lines with the whole text on
 * hover and behind 'Show more'.
 */

/** A date and time as 'MM/DD/YYYY h:mm A' (the spec's table format) that may break between date and time. */
export function DateTimeCell({ value }: { value: string | null | undefined }) {
  const d = value ? dayjs(value) : null;
  if (!d?.isValid()) return <>{value || MISSING}</>;
  return (
    // One element: a stacked (phone) row keeps the date and its time together in the value column.
    <span>
      <span style={{ whiteSpace: 'nowrap' }}>{d.format('MM/DD/YYYY')}</span>{' '}
      <span style={{ whiteSpace: 'nowrap' }}>{d.format('h:mm A')}</span>
    </span>
  );
}

/**
 * Free text (comments) that may run long: at most two lines, the whole text as the hover title and after
 * 'Show more' (a button, so keyboards and fingers reach it). The full text stays in the page, so screen
 * readers and the table filter read all of it.
 */
export function CondensedText({ text, maxChars = 80 }: { text: string | null | undefined; maxChars?: number }) {
  const [open, setOpen] = useState(false);
  const value = text?.trim() ? text : MISSING;
  if (value.length <= maxChars) return <Text size="sm">{value}</Text>;
  return (
    <div>
      <Text
        size="sm"
        lineClamp={open ? undefined : 2}
        title={open ? undefined : value}
        style={{ overflowWrap: 'anywhere' }}
      >
        {value}
      </Text>
      <Anchor
        component="button"
        type="button"
        size="sm"
        aria-expanded={open}
        onClick={(e) => {
          e.stopPropagation();
          setOpen((o) => !o);
        }}
      >
        {open ? 'Show less' : 'Show more'}
      </Anchor>
    </div>
  );
}

/**
 * A name or an address no wider than `maw`, wrapped (anywhere, as an e-mail address has no spaces) rather
 * than cut with an ellipsis: cut text lost more once a reader widened its spacing (WCAG 1.4.12) and could not
 * be read on a phone, where there is no hover.
 */
export function BoundedText({ text, maw = '14rem' }: { text: string | null | undefined; maw?: string }) {
  const value = text?.trim() ? text : MISSING;
  return (
    <Text size="sm" maw={maw} style={{ overflowWrap: 'anywhere' }}>
      {value}
    </Text>
  );
}
