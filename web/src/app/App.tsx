import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { queryClient } from '@/api/queryClient';
import { setNavigator } from './navigation';
import { buildRouteObjects } from './router';
import { ToastHost } from './toast';
import { LoadingBar } from './shell/LoadingBar';

const router = createBrowserRouter(buildRouteObjects());

export function App(): ReactNode {
  useEffect(() => {
    setNavigator((to, opts) => void router.navigate(to, opts));
    return () => setNavigator(null);
  }, []);
  return (
    <FluentProvider theme={webLightTheme} style={{ minHeight: '100vh' }}>
      <QueryClientProvider client={queryClient}>
        <LoadingBar />
        <RouterProvider router={router} />
        <ToastHost />
      </QueryClientProvider>
    </FluentProvider>
  );
}
