import { pathOf } from './paths';

// Navigation for code outside React (the request layer's 401 handling). The router registers its
// `navigate` at start; before that (or in a bare page) a full page load does the job.
type Navigate = (to: string, opts?: { replace?: boolean }) => void;

let navigator: Navigate | null = null;

export function setNavigator(fn: Navigate | null): void {
  navigator = fn;
}

export function navigateTo(to: string, opts?: { replace?: boolean }): void {
  if (navigator) navigator(to, opts);
  else if (opts?.replace) window.location.replace(to);
  else window.location.assign(to);
}

export function currentPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}

export const LOGIN_PATH = pathOf('login');

/** The login address that brings the user back to `path` afterwards. */
export function loginPathFor(path: string): string {
  return path && !path.startsWith(LOGIN_PATH) ? `${LOGIN_PATH}?redirect=${encodeURIComponent(path)}` : LOGIN_PATH;
}
