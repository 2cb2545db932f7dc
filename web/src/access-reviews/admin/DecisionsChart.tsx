import { Box, Group, Text } from '@mantine/core';
import { USER_SUPPORT_POOL, type AccessReviewCampaignDetail } from '@portal/contract';
import { Fragment } from 'react';
import classes from './DecisionsChart.module.css';

/** The three kinds of bar segment, in theme colours of 3:1 against white (as graphics need). */
const KINDS = {
  keep: { label: 'Keep', color: 'var(--mantine-color-teal-7)' },
  remove: { label: 'Remove', color: 'var(--mantine-color-red-8)' },
  undecided: { label: 'Undecided', color: 'var(--mantine-color-gray-6)' },
} as const;
type Kind = keyof typeof KINDS;

export interface ChartLine {
  key: string;
  label: string;
  counts: Partial<Record<Kind, number>>;
}

/** The chart's lines: one per reviewer (Keep and Remove), then one per pool with undecided items. */
export function chartLines(detail: Pick<AccessReviewCampaignDetail, 'byReviewer' | 'undecidedByPool'>): ChartLine[] {
  return [
    ...detail.byReviewer.map((r) => ({
      key: `reviewer:${r.username}`,
      label: r.username,
      counts: { keep: r.keep, remove: r.remove },
    })),
    ...detail.undecidedByPool.map((p) => ({
      key: `pool:${p.pool}`,
      label: p.pool === USER_SUPPORT_POOL ? `${USER_SUPPORT_POOL} (undecided)` : `LAO ${p.pool} (undecided)`,
      counts: { undecided: p.count },
    })),
  ];
}

const kindsOf = (line: ChartLine) => (Object.keys(KINDS) as Kind[]).filter((k) => (line.counts[k] ?? 0) > 0);
const totalOf = (line: ChartLine) => kindsOf(line).reduce((n, k) => n + (line.counts[k] ?? 0), 0);

/** One line in words, for the chart's text alternative. */
const describe = (line: ChartLine) =>
  `${line.label}: ${kindsOf(line)
    .map((k) => `${line.counts[k]} ${KINDS[k].label}`)
    .join(', ')}`;

/** The axis maximum: the largest total rounded up to a multiple of 5 steps of 1, 2 or 5 times a power of ten. */
export function axisMax(largest: number): number {
  const top = Math.max(1, Math.ceil(largest));
  for (let scale = 1; ; scale *= 10) {
    for (const m of [1, 2, 5]) if (m * scale * 5 >= top) return m * scale * 5;
  }
}

/**
 * A campaign's decisions by reviewer and its undecided items by pool (issue 25 'a chart by reviewer') as
 * horizontal stacked bars, in the dashboard queue chart's habit: plain HTML and CSS (no charting library), one
 * image to assistive technology named with every line's numbers; the same numbers are in the table beside it.
 * The axis has five steps (its grid lines drawn by the bar's background).
 */
export function DecisionsChart({ lines }: { lines: ChartLine[] }) {
  const max = axisMax(Math.max(0, ...lines.map(totalOf)));
  const pct = (n: number) => `${(n / max) * 100}%`;
  return (
    <Box role="img" aria-label={lines.map(describe).join('; ')} data-testid="decisions-chart">
      <div className={classes.chart}>
        {lines.map((line) => (
          <Fragment key={line.key}>
            <Text size="sm" className={classes.label} title={line.label}>
              {line.label}
            </Text>
            <div className={classes.bar}>
              {kindsOf(line).map((k) => (
                <span
                  key={k}
                  className={classes.segment}
                  style={{ width: pct(line.counts[k] ?? 0), background: KINDS[k].color }}
                  title={`${KINDS[k].label}: ${line.counts[k]}`}
                />
              ))}
            </div>
          </Fragment>
        ))}
        <span className={classes.spacer} />
        <div className={classes.axis}>
          {[0, 1, 2, 3, 4, 5].map((t) => (
            <Text key={t} size="xs" c="dimmed">
              {(max / 5) * t}
            </Text>
          ))}
        </div>
      </div>
      <Group gap="md" justify="center" mt="sm">
        {(Object.keys(KINDS) as Kind[]).map((k) => (
          <Group key={k} gap={6} wrap="nowrap">
            <span className={classes.swatch} style={{ background: KINDS[k].color }} />
            <Text size="sm">{KINDS[k].label}</Text>
          </Group>
        ))}
      </Group>
    </Box>
  );
}
