import { type ComponentType, lazy } from 'react';
import { LogsPage } from '../pages/LogsPage';

export interface Page {
  path: string;
  label: string;
  component: ComponentType;
  /** The page routes below its path itself (a list and its detail pages). */
  nest?: boolean;
  /** Only where the service runs in development mode (the all-in-one's `npm start`). */
  devOnly?: boolean;
}

/** A page loaded when first opened, from its module's export named `name`. */
export function later<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): ComponentType {
  return lazy(async (): Promise<{ default: ComponentType }> => ({ default: (await load())[name] }));
}

/**
 * The console's pages, in navigation order. Logs are in the first download; the others load when
 * first opened, so the editor and the charts never weigh on sign-in.
 */
export const PAGES: readonly [Page, ...Page[]] = [
  { path: '/logs', label: 'Logs', component: LogsPage, nest: true },
  {
    path: '/insights',
    label: 'Insights',
    component: later(() => import('../pages/InsightsPage'), 'InsightsPage'),
  },
  {
    path: '/types',
    label: 'Notification types',
    component: later(() => import('../pages/TypesPage'), 'TypesPage'),
    nest: true,
  },
  {
    path: '/users',
    label: 'Users',
    component: later(() => import('../pages/UsersPage'), 'UsersPage'),
    nest: true,
  },
  {
    path: '/webhooks',
    label: 'Webhooks',
    component: later(() => import('../pages/WebhooksPage'), 'WebhooksPage'),
    nest: true,
  },
  {
    path: '/settings',
    label: 'Settings',
    component: later(() => import('../pages/SettingsPage'), 'SettingsPage'),
    nest: true,
  },
  {
    path: '/outbox',
    label: 'Dev outbox',
    component: later(() => import('../pages/OutboxPage'), 'OutboxPage'),
    devOnly: true,
  },
];

/** The pages this deployment has. */
export const pagesFor = (devMode: boolean): Page[] =>
  PAGES.filter((page) => devMode || page.devOnly !== true);
