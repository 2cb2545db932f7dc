import { Text } from '@mantine/core';
import classes from './CondensedList.module.css';
import { MISSING } from './format';

/**
 * A list that can run long inside a table cell (systems, studies, roles): up to `max` items as text; more
 * become '3 systems', which expands in place to the whole list (a native disclosure, so it works with a
 * keyboard, a screen reader and a finger) and shows it on hover. Rows keep one or two lines instead of
 * seven, so the columns a person came for (the status) stay in view.
 */
export function CondensedList({
  items,
  noun,
  max = 2,
}: {
  items: readonly string[];
  /** Singular and plural, e.g. ['system', 'systems']. */
  noun: readonly [string, string];
  max?: number;
}) {
  if (items.length === 0) return <>{MISSING}</>;
  if (items.length <= max) return <>{items.join(', ')}</>;
  const all = items.join(', ');
  return (
    <details className={classes.details} title={all} onClick={(e) => e.stopPropagation()}>
      <summary className={classes.summary}>
        {items.length} {items.length === 1 ? noun[0] : noun[1]}
      </summary>
      <Text size="sm" component="span">
        {all}
      </Text>
    </details>
  );
}
