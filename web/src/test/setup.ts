import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { i18n } from '@/i18n';

// jsdom has no layout; Fluent's MessageBar and overflow helpers only need the constructor to exist.
if (!('ResizeObserver' in globalThis)) {
  globalThis.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}

// Lazily loaded screens are transformed on first import, which can exceed the 1 s default.
configure({ asyncUtilTimeout: 5000 });

// Tests read the spec's English texts.
void i18n.changeLanguage('en');

afterEach(() => {
  cleanup();
  localStorage.clear();
});
