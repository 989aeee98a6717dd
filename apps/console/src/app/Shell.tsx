import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api, ok } from '../api/client';
import { useConsoleConfig } from './config';
import { pagesFor } from './pages';
import { useSession } from './session';

/** The frame around every page: who is signed in, the environment they act in, and the pages. */
export function Shell({ children }: { children: ReactNode }) {
  const session = useSession();
  const [location] = useLocation();
  const pages = pagesFor(useConsoleConfig().data?.devMode === true);
  // The menu (on narrow screens) stays open on the page it was opened on: navigating closes it.
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null);
  const menuOpen = menuOpenAt === location;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="nav"
          onClick={() => setMenuOpenAt(menuOpen ? null : location)}
        >
          Menu
        </button>
        <span className="brand">Notify</span>
        <EnvironmentPicker />
        <span className="who" title={session.role}>
          {session.who.kind === 'member' ? session.who.email : 'API key'} · {session.role}
        </span>
        <button type="button" className="secondary" onClick={() => void session.signOut()}>
          Sign out
        </button>
      </header>
      <nav id="nav" aria-label="Console" className={menuOpen ? 'nav open' : 'nav'}>
        <ul>
          {pages.map((page) => (
            <li key={page.path}>
              <Link
                href={page.path}
                onClick={() => setMenuOpenAt(null)}
                aria-current={
                  location === page.path || location.startsWith(`${page.path}/`) ? 'page' : undefined
                }
              >
                {page.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {session.envId === null ? <p className="muted">Choose an environment to begin.</p> : children}
      </main>
    </div>
  );
}

/**
 * A member acts in one environment at a time and may switch; a key belongs to one environment. The
 * first environment is chosen for a member who has not chosen.
 */
function EnvironmentPicker() {
  const session = useSession();
  const member = session.who.kind === 'member';
  const environments = useQuery({
    queryKey: ['console-session', 'environments', session.accountId],
    queryFn: () => ok(api.GET('/environments', { params: { query: { accountId: session.accountId } } })),
    enabled: member,
  });
  const first = environments.data?.[0]?.clientId;
  const { envId, chooseEnvironment } = session;
  useEffect(() => {
    if (member && envId === null && first !== undefined) chooseEnvironment(first);
  }, [member, envId, first, chooseEnvironment]);
  if (!member) return <span className="env">Environment {envId}</span>;
  return (
    <label className="env">
      <span className="visually-hidden">Environment</span>
      <select value={envId ?? ''} onChange={(event) => chooseEnvironment(event.target.value)}>
        {envId === null && <option value="">Environment…</option>}
        {(environments.data ?? []).map((env) => (
          <option key={env.clientId} value={env.clientId}>
            {env.title}
            {env.test ? ' (test)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
