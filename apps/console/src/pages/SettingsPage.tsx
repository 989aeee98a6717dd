import type { ComponentType } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { BillingSettings } from '../settings/BillingSettings';
import { DomainsSettings } from '../settings/DomainsSettings';
import { EnvironmentsSettings } from '../settings/EnvironmentsSettings';
import { MembersSettings } from '../settings/MembersSettings';
import { NumbersSettings } from '../settings/NumbersSettings';
import { PushSettings } from '../settings/PushSettings';
import { PageHeader } from '../ui/kit';

const SECTIONS: readonly { path: string; label: string; component: ComponentType }[] = [
  { path: '/environments', label: 'Environments and keys', component: EnvironmentsSettings },
  { path: '/members', label: 'Members and roles', component: MembersSettings },
  { path: '/domains', label: 'Sending domains', component: DomainsSettings },
  { path: '/numbers', label: 'Phone numbers', component: NumbersSettings },
  { path: '/push', label: 'Push and providers', component: PushSettings },
  { path: '/billing', label: 'Billing and usage', component: BillingSettings },
];

/** Settings: one sub-page per area, chosen in its own navigation. */
export function SettingsPage() {
  const [location] = useLocation();
  return (
    <>
      <PageHeader title="Settings">
        <p>The account, its environments and people, and what this environment sends with.</p>
      </PageHeader>
      <nav aria-label="Settings" className="subnav">
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.path}>
              <Link href={section.path} aria-current={location === section.path ? 'page' : undefined}>
                {section.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Switch>
        {SECTIONS.map((section) => (
          <Route key={section.path} path={section.path} component={section.component} />
        ))}
        <Route>
          <Redirect to="/environments" replace />
        </Route>
      </Switch>
    </>
  );
}
