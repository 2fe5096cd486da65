import type { ComponentType } from 'react';

/**
 * Live figures on the dashboard. A later issue appends a widget here (e.g. running operations,
 * unread notifications); the page lays them out in a responsive grid and shows nothing when empty.
 */
export interface DashboardWidget {
  id: string;
  component: ComponentType;
}

export const dashboardWidgets: DashboardWidget[] = [];
