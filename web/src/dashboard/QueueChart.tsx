import { BarChart } from '@mantine/charts';
import { useMediaQuery } from '@mantine/hooks';
import { QUEUE_AGE_BUCKETS, QUEUE_AGE_LABELS, type QueueAgeBucket } from '@portal/contract';
import type { QueueLine } from './queueRows';

/** Age brackets from fresh to overdue, in theme colours (3:1 against white, as graphics need). */
const AGE_COLORS: Record<QueueAgeBucket, string> = {
  UNDER_1_DAY: 'teal.7',
  DAYS_1_TO_3: 'blue.7',
  DAYS_3_TO_7: 'orange.7',
  OVER_7_DAYS: 'red.8',
};

/**
 * The reviewers' open requests as horizontal stacked bars, one bar per kind and status, coloured by age: where
 * the work waits and how long, at a glance. Loaded lazily (with @mantine/charts and recharts) by
 * QueuesSection; the same numbers are in the table beside it for screen readers and exact reading.
 */
export default function QueueChart({ lines }: { lines: QueueLine[] }) {
  // On a phone the labels get less room, so the bars keep some (000 §9 sidebar breakpoint, 768 px).
  const narrow = useMediaQuery('(max-width: 767px)');
  return (
    <BarChart
      h={Math.max(160, 48 * lines.length + 80)}
      data={lines}
      dataKey="label"
      type="stacked"
      orientation="vertical"
      withLegend
      // Brackets in age order (recharts would sort the legend by name), whole numbers on the count axis.
      legendProps={{
        verticalAlign: 'bottom',
        itemSorter: (item) => QUEUE_AGE_BUCKETS.indexOf(item.dataKey as QueueAgeBucket),
      }}
      xAxisProps={{ allowDecimals: false }}
      yAxisProps={{ width: narrow ? 120 : 220 }}
      gridAxis="x"
      maxBarWidth={28}
      series={QUEUE_AGE_BUCKETS.map((b) => ({ name: b, label: QUEUE_AGE_LABELS[b], color: AGE_COLORS[b] }))}
    />
  );
}
