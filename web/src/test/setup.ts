import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { setAuth } from '@/app/auth';
import { setDisplayTimeZone } from '@/app/format';
import { i18n } from '@/i18n';
import { operator } from './renderApp';

// The login page, where every signed-out render lands, loaded before any test: it is a lazy route, and
// the web project shares one module graph a worker (vitest.config.ts isolate: false), so a file whose
// test ended while that import was in flight tore the environment down under it, and the next file's
// login page waited 30 s on the broken load (routes, SsoButton and LoginPage tests, now and then).
await import('@/features/auth/LoginPage');
// The Help page too: a router render (TgSettingsPage's tests) started its lazy load, which a test's end
// cut with the same teardown error (BankNotificationHelp's file failed so in a full run, 2026-12-07).
await import('@/features/help/HelpPage');

// jsdom has no layout; Fluent's MessageBar and overflow helpers only need the constructor to exist.
if (!('ResizeObserver' in globalThis)) {
  globalThis.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}

// jsdom lacks matchMedia; Fluent's dialog motion asks it about reduced motion.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener() {},
  removeListener() {},
  addEventListener() {},
  removeEventListener() {},
  dispatchEvent: () => false,
})) as unknown as typeof window.matchMedia;

// jsdom has no layout for SVG either; the dashboard's charts (@fluentui/react-charts) measure their
// axis labels to truncate them.
const svgProto = (globalThis.SVGElement?.prototype ?? {}) as unknown as Record<string, unknown>;
svgProto.getComputedTextLength ??= () => 0;
svgProto.getBBox ??= () => ({ x: 0, y: 0, width: 0, height: 0 });

// jsdom has no canvas either, and says so on stderr at every call (~470 lines a run from the charts'
// text measuring). null is what a browser answers for a context it cannot make.
if (globalThis.HTMLCanvasElement)
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;

// Lazily loaded screens are transformed on first import; with every web test file running at once
// on two cores that took up to 8 s, far past the 1 s default, and a dialog holding a table up to
// 15 s while the other lanes ran. Only failing waits get slower.
configure({ asyncUtilTimeout: 30_000 });

// The web project runs its files in one module graph per worker (isolate: false; importing Fluent
// anew for every file was most of the project's time), so every test starts from the same
// module state, whatever the file before it left: the spec's English texts, the browser's own time
// zone, and signed in as an operator (screens render only for a signed-in user, and a viewer's
// hide their writes), unless the test signs in otherwise (or out, to test the login itself).
beforeEach(async () => {
  await i18n.changeLanguage('en');
  setDisplayTimeZone(undefined);
  setAuth(operator);
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// Two warnings fail the call that caused them, so no test brings them back:
// - Griffel's, that class names were joined as a string where mergeClasses was needed: the later
//   styles may then lose to the earlier ones (a dashboard panel's wide card did);
// - React's, that act() ran outside an act environment: React's own `act` (from 'react') does not
//   set one here (Testing Library sets it in a global beforeAll, which vitest has not), so a test
//   takes `act` from '@testing-library/react', which does.
const reportError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  const text = typeof args[0] === 'string' ? args[0] : '';
  if (text.startsWith('mergeClasses(): a passed string contains multiple'))
    throw new Error(`Classes joined as a string; use mergeClasses. ${text}`);
  if (text.startsWith('The current testing environment is not configured to support act('))
    throw new Error(`act() outside an act environment; import act from '@testing-library/react'. ${text}`);
  reportError(...args);
};
