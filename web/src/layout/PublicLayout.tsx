import { Anchor, Box, Container, Group, Text } from '@mantine/core';
import { useDebouncedValue, useElementSize, useViewportSize } from '@mantine/hooks';
import { Link, Outlet } from 'react-router-dom';
import { SITE_TITLE } from '../lib/config';
import { paths } from '../lib/paths';
import { Footer } from './Footer';

/**
 * Public layout (000 §2 Layouts): logo, main area, footer. The content is pushed down by 20% of the spare
 * viewport height (never below 0), recalculated on resize with a 150 ms debounce (000 §9).
 */
export function PublicLayout() {
  const { height: viewportHeight } = useViewportSize();
  const { ref, height: contentHeight } = useElementSize();
  const [offset] = useDebouncedValue(Math.max(0, (viewportHeight - contentHeight) * 0.2), 150);

  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box style={{ paddingTop: offset }}>
        <Box ref={ref}>
          <Container size="sm" py="md">
            <Group component="header" justify="center">
              <Anchor component={Link} to={paths.publicHome.href} underline="never" aria-label={`${SITE_TITLE} home`}>
                <Group gap="xs">
                  <img src="/favicon.svg" alt="" width={32} height={32} />
                  <Text fw={700} size="xl" c="blue.8">
                    {SITE_TITLE}
                  </Text>
                </Group>
              </Anchor>
            </Group>
          </Container>
          <Container component="main" id="main-content" size="sm" pb="xl">
            <Outlet />
          </Container>
        </Box>
      </Box>
      <Box mt="auto">
        <Footer />
      </Box>
    </Box>
  );
}
