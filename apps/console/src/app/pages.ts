import { type ComponentType } from 'react';
import { LogsPage } from '../pages/LogsPage';

export interface Page {
  path: string;
  label: string;
  component: ComponentType;
  /** The page routes below its path itself (a list and its detail pages). */
  nest?: boolean;
}

/**
 * The console's pages, in navigation order. Logs are in the first download; the others load when
 * first opened, so the editor and the charts never weigh on sign-in.
 */
export const PAGES: readonly [Page, ...Page[]] = [
  { path: '/logs', label: 'Logs', component: LogsPage, nest: true },
];
