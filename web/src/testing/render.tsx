import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import type { Permission } from '@portal/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { sessionKeys } from '../lib/sessionQueries';
import { cssVariablesResolver } from '../shared/theme/palette';
import { theme } from '../shared/theme/theme';

/**
 * Renders a screen as the app does (Mantine with the app's theme, modals and notifications, a fresh TanStack Query client, a data
 * router) at `url`, matched by `path`. `permissions` are the signed-in user's (granted_permissions is served
 * from the cache, no call). `otherRoutes` lets a test see where the screen navigates (e.g. a marker element on
 * the list it returns to). A memory data router, not `MemoryRouter`: the unsaved-changes guard uses
 * `useBlocker`, which needs one.
 */
export function renderRoute({
  path,
  url,
  element,
  permissions = ['USER'],
  otherRoutes = [],
}: {
  path: string;
  url: string;
  element: ReactNode;
  permissions?: Permission[];
  otherRoutes?: RouteObject[];
}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
  queryClient.setQueryData(sessionKeys.permissions, permissions);
  const router = createMemoryRouter([{ path, element }, ...otherRoutes], { initialEntries: [url] });
  const user = userEvent.setup();
  const view = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider labels={{ confirm: 'OK', cancel: 'Cancel' }}>
          <Notifications />
          <RouterProvider router={router} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...view, user, router, queryClient };
}
