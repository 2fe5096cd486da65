import { Spinner } from '@fluentui/react-components';
import { Component, type ReactNode, Suspense } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import NotFoundPage from '@/features/errors/NotFoundPage';
import { useT } from '@/i18n';
import { isSuper, useAuth } from './auth';
import { pathOf } from './paths';
import { hasNumericParams, type RouteDef } from './routes';

function PageSpinner(): ReactNode {
  const t = useT();
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: 240 }}>
      <Spinner size="medium" label={t('Loading…')} />
    </div>
  );
}

class ScreenBoundary extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function LoadFailed(): ReactNode {
  const t = useT();
  return (
    <div role="alert" style={{ padding: 24 }}>
      {t('Failed to load this page.')}{' '}
      <a href={window.location.href} onClick={() => window.location.reload()}>
        {t('Refresh')}
      </a>
    </div>
  );
}

/** One routed screen: numeric ids only, super pages for super users, lazily loaded. */
export function RouteScreen({ def }: { def: RouteDef }): ReactNode {
  const params = useParams();
  const auth = useAuth();
  if (!hasNumericParams(params)) return <NotFoundPage />;
  if (def.super && !isSuper(auth)) return <Navigate to={pathOf('forbidden')} replace />;
  const Screen = def.screen;
  if (!Screen) return <NotFoundPage />;
  return (
    <ScreenBoundary key={def.name} fallback={<LoadFailed />}>
      <Suspense fallback={<PageSpinner />}>
        <Screen />
      </Suspense>
    </ScreenBoundary>
  );
}
