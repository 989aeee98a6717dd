import { Suspense } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { SignInPage } from '../pages/SignInPage';
import { ErrorNote, Loading } from '../ui/kit';
import { useConsoleConfig } from './config';
import { PAGES, pagesFor } from './pages';
import { SessionProvider, useWho } from './session';
import { Shell } from './Shell';

/** Signed out: the sign-in page (which also takes a mailed link). Signed in: the shell and its pages. */
export function App() {
  const who = useWho();
  const [location] = useLocation();
  const pages = pagesFor(useConsoleConfig().data?.devMode === true);
  if (who.isPending) return <Loading what="the console" />;
  if (who.isError) return <ErrorNote error={who.error} />;
  if (who.data === null || location === '/sign-in') return <SignInPage />;
  return (
    <SessionProvider who={who.data}>
      <Shell>
        <Suspense fallback={<Loading what="the page" />}>
          <Switch>
            {pages.map((page) => (
              <Route key={page.path} path={page.path} nest={page.nest ?? false} component={page.component} />
            ))}
            <Route>
              <Redirect to={PAGES[0].path} replace />
            </Route>
          </Switch>
        </Suspense>
      </Shell>
    </SessionProvider>
  );
}
