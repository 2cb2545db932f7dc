import { Anchor, Box, Container, Group, Text } from '@mantine/core';
import { useCallback, useLayoutEffect, useRef } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { SITE_TITLE } from '../lib/config';
import { paths } from '../lib/paths';
import { Footer } from './Footer';

/** 000 §9: the window resize debounce. */
const RESIZE_DEBOUNCE_MS = 150;

/**
 * Public layout (000 §2 Layouts): logo, main area, footer. The content is pushed down by 20% of the spare
 * viewport height (viewport minus content, never below 0; 000 §9). The offset is set before the first paint
 * and again as soon as the content's height changes (another page, a message), written to the element's style
 * so no render stands between measuring and painting; only a window resize waits for the 150 ms debounce.
 * Content that moved under the pointer a moment after it appeared once took a click meant for a link.
 */
export function PublicLayout() {
  const pushed = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const place = useCallback(() => {
    if (!pushed.current || !content.current) return;
    const spare = window.innerHeight - content.current.offsetHeight;
    pushed.current.style.paddingTop = `${Math.max(0, spare * 0.2)}px`;
  }, []);

  useLayoutEffect(() => {
    place();
    const observer = new ResizeObserver(place);
    if (content.current) observer.observe(content.current);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const resized = () => {
      clearTimeout(timer);
      timer = setTimeout(place, RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', resized);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', resized);
      clearTimeout(timer);
    };
  }, [place]);

  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box ref={pushed}>
        <Box ref={content}>
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
