import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { i18n } from '@/i18n';

// Lazily loaded screens are transformed on first import, which can exceed the 1 s default.
configure({ asyncUtilTimeout: 5000 });

// Tests read the spec's English texts.
void i18n.changeLanguage('en');

afterEach(() => {
  cleanup();
  localStorage.clear();
});
