import { Box, Group, Text } from '@mantine/core';
import { QUEUE_AGE_BUCKETS, QUEUE_AGE_LABELS, type QueueAgeBucket } from '@portal/contract';
import classes from './QueueChart.module.css';
import { countTicks } from './queueTicks';
import type { QueueLine } from './queueRows';

/** Age brackets from fresh to overdue, in theme colours (3:1 against white, as graphics need). */
const AGE_COLORS: Record<QueueAgeBucket, string> = {
  UNDER_1_DAY: 'var(--mantine-color-teal-7)',
  DAYS_1_TO_3: 'var(--mantine-color-blue-7)',
  DAYS_3_TO_7: 'var(--mantine-color-orange-7)',
  OVER_7_DAYS: 'var(--mantine-color-red-8)',
};

/** One line's numbers in words, for the chart's text alternative. */
function describe(line: QueueLine): string {
  const parts = QUEUE_AGE_BUCKETS.filter((b) => line[b] > 0).map((b) => `${line[b]} ${QUEUE_AGE_LABELS[b]}`);
  return `${line.label}: ${line.total} (${parts.join(', ')})`;
}

/**
 * The reviewers' open requests as horizontal stacked bars, one bar per kind and status, coloured by age: where
 * the work waits and how long, at a glance. Plain HTML and CSS (a grid, bars as percentages of the count
 * axis), so it costs the dashboard a few kilobytes instead of a charting library's 130 KB gzipped (issue 23
 * Speed). The chart is one image to assistive technology, named with every line's numbers; the same numbers
 * are in the sortable table beside it for exact reading. Each segment names its bracket and count on hover.
 * Loaded lazily by QueuesSection.
 */
export default function QueueChart({ lines }: { lines: QueueLine[] }) {
  const ticks = countTicks(Math.max(0, ...lines.map((l) => l.total)));
  const max = ticks[ticks.length - 1] ?? 1;
  const pct = (n: number) => `${(n / max) * 100}%`;
  return (
    <Box role="img" aria-label={lines.map(describe).join('; ')} className={classes.chart} data-testid="queue-chart">
      <div className={classes.plot}>
        {lines.map((line) => (
          <div key={line.key} className={classes.row}>
            <Text size="sm" className={classes.label} title={line.label}>
              {line.label}
            </Text>
            <div className={classes.track}>
              {ticks.map((t) => (
                <span key={t} className={classes.grid} style={{ left: pct(t) }} />
              ))}
              <div className={classes.bar}>
                {QUEUE_AGE_BUCKETS.filter((b) => line[b] > 0).map((b) => (
                  <span
                    key={b}
                    className={classes.segment}
                    style={{ width: pct(line[b]), background: AGE_COLORS[b] }}
                    title={`${QUEUE_AGE_LABELS[b]}: ${line[b]}`}
                  />
                ))}
              </div>
            </div>
          </div>
        ))}
        <div className={classes.row}>
          <span />
          <div className={classes.axis}>
            {ticks.map((t) => (
              <Text key={t} size="xs" c="dimmed" className={classes.tick} style={{ left: pct(t) }}>
                {t}
              </Text>
            ))}
          </div>
        </div>
      </div>
      <Group gap="md" justify="center" mt="sm">
        {QUEUE_AGE_BUCKETS.map((b) => (
          <Group key={b} gap={6} wrap="nowrap">
            <span className={classes.swatch} style={{ background: AGE_COLORS[b] }} />
            <Text size="sm">{QUEUE_AGE_LABELS[b]}</Text>
          </Group>
        ))}
      </Group>
    </Box>
  );
}
