import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DASHBOARD_MESSAGES, VISUALIZATION_POLL, type TableauToken, type Visualization } from '@portal/contract';
import { useEffect, useState } from 'react';
import { LoadError } from '../shared/ErrorAlert';
import { useVisualization } from './api/getVisualization';
import { BusyIndicator } from '../shared/BusyIndicator';

/**
 * The view's address through a trusted ticket (Tableau trusted authentication): the ticket is redeemed once,
 * on the site it was issued for (none: the default site); toolbar hidden, tabs shown (000 §4 Visualization
 * helper).
 */
export function trustedViewUrl(token: TableauToken, visualization: Visualization): string {
  const site = token.targetSite ? `/t/${encodeURIComponent(token.targetSite)}` : '';
  const path = visualization.filePath.split('/').map(encodeURIComponent).join('/');
  return `${token.tableauExternalUrl}/trusted/${encodeURIComponent(token.tableauToken)}${site}/views/${path}?:embed=y&:toolbar=no&:tabs=yes`;
}

/**
 * One visualization in a frame. 000 §4 Visualization helper: it polls once per second, up to 10 times
 * (000 §9), for the first interactivity, here the frame's load; after the last try it says it failed.
 */
function TableauFrame({ id }: { id: number }) {
  const viz = useVisualization(id);
  const [loaded, setLoaded] = useState(false);
  const [gaveUp, setGaveUp] = useState(false);
  const src = viz.data ? trustedViewUrl(viz.data.token, viz.data.visualization) : null;

  useEffect(() => {
    if (!src || loaded) return;
    let tries = 0;
    const timer = setInterval(() => {
      tries += 1;
      if (tries >= VISUALIZATION_POLL.tries) {
        clearInterval(timer);
        setGaveUp(true);
      }
    }, VISUALIZATION_POLL.everyMs);
    return () => clearInterval(timer);
  }, [src, loaded]);

  if (viz.isError) return <LoadError text={DASHBOARD_MESSAGES.visualizationFailed} />;
  if (!viz.data || !src) return <BusyIndicator label="Loading the visualization" />;
  const { visualization } = viz.data;
  return (
    <Stack gap="xs" data-testid={`visualization-${id}`}>
      <Title order={3} size="h4">
        {visualization.title}
      </Title>
      {visualization.description && <Text size="sm">{visualization.description}</Text>}
      {gaveUp && !loaded && <LoadError text={DASHBOARD_MESSAGES.visualizationFailed} />}
      <iframe
        src={src}
        title={visualization.title}
        onLoad={() => setLoaded(true)}
        style={{ width: '100%', height: 420, border: '1px solid var(--mantine-color-gray-4)' }}
      />
    </Stack>
  );
}

/**
 * The analytics visualizations the user's permissions show (000 §2 dashboard-embedding helper, §7
 * Visualizations); not rendered at all when no Tableau server is configured (no ids).
 */
export function VisualizationsSection({ ids }: { ids: number[] }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="dashboard-visualizations-heading">
      <Title order={2} id="dashboard-visualizations-heading" mb="sm">
        Analytics
      </Title>
      <SimpleGrid cols={{ base: 1, lg: ids.length > 1 ? 2 : 1 }}>
        {ids.map((id) => (
          <TableauFrame key={id} id={id} />
        ))}
      </SimpleGrid>
    </Paper>
  );
}
