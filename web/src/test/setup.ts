import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { setAuth } from '@/app/auth';
import { i18n } from '@/i18n';
import { operator } from './renderApp';

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

// Lazily loaded screens are transformed on first import; with every web test file running at once
// on two cores that took up to 8 s, far past the 1 s default, and a dialog holding a table up to
// 15 s while the other lanes ran. Only failing waits get slower.
configure({ asyncUtilTimeout: 30_000 });

// Tests read the spec's English texts.
void i18n.changeLanguage('en');

// Screens render only for a signed-in user, and a viewer's screens hide their writes: every test
// starts signed in as an operator, unless it signs in otherwise (or out, to test the login itself).
beforeEach(() => setAuth(operator));

afterEach(() => {
  cleanup();
  localStorage.clear();
});
