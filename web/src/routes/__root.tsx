import { lazy, Suspense, useEffect, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Link, Outlet, useRouterState } from '@tanstack/react-router';
import { usePageTitle } from '../lib/pageTitle.ts';
import { refreshSession, useSession } from '../lib/session.ts';
import { connectRealtime } from '../live/connection.ts';
import { CatchingUp } from '../components/CatchingUp.tsx';
import { ConnectionBar } from '../components/ConnectionBar.tsx';
import { Header } from '../components/Header.tsx';
import { LoadingScreen } from '../components/LoadingScreen.tsx';
import { Toaster } from '../components/Toaster.tsx';
import { WelcomeCheck } from '../components/WelcomeCheck.tsx';

// A signed-in visit never needs the gate or its dialogs: they load only when the gate shows.
const Gate = lazy(() => import('../components/Gate.tsx').then((module) => ({ default: module.Gate })));

export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootComponent,
  notFoundComponent: NotFound,
});

function RootComponent() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  usePageTitle(pathname);
  return (
    <>
      {/* The health check is for monitors: static, and outside the gate. */}
      {pathname === '/health-check' ? <Outlet /> : <GatedApp pathname={pathname} />}
      <Toaster />
    </>
  );
}

function GatedApp({ pathname }: { pathname: string }) {
  const session = useSession();
  const [checked, setChecked] = useState(false);

  // The stored flags are checked at start, after 100 ms and after a further 200 ms (spec §4 Gate).
  useEffect(() => {
    refreshSession();
    setChecked(true);
    const timers = [setTimeout(refreshSession, 100), setTimeout(refreshSession, 300)];
    return () => timers.forEach(clearTimeout);
  }, []);

  if (!checked) return <LoadingScreen />;
  if (!session.signedIn) {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <Gate />
      </Suspense>
    );
  }
  return <SignedInApp pathname={pathname} />;
}

function SignedInApp({ pathname }: { pathname: string }) {
  const queryClient = useQueryClient();
  useEffect(() => connectRealtime(queryClient), [queryClient]);

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-white px-4 py-2 font-semibold text-stone-900 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      {/* The landing page has no header; the reveal slideshow is the whole screen. */}
      {pathname !== '/' && pathname !== '/reveal' && <Header />}
      <ConnectionBar />
      <CatchingUp />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <Outlet />
      </main>
      {!pathname.startsWith('/admin') && !pathname.startsWith('/audit') && <WelcomeCheck />}
    </div>
  );
}

function NotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="font-display text-7xl font-bold text-amber-400">404</p>
      <h1 className="mt-4 font-display text-3xl font-bold text-stone-900 dark:text-amber-50">Page Not Found</h1>
      <p className="mt-3 text-stone-600 dark:text-stone-400">The page you are looking for does not exist.</p>
      <Link to="/" className="btn-primary mt-8">
        Go Home
      </Link>
    </div>
  );
}
