import { afterEach, describe, expect, it } from 'vitest';
import { i18n, LOCALE_STORAGE_KEY, setLocale, storedLocale, t } from './index';

afterEach(() => {
  void i18n.changeLanguage('en');
});

describe('i18n', () => {
  it('uses the English text of the spec as the key and as the English text', () => {
    expect(t('Timeout, try later.')).toBe('Timeout, try later.');
    expect(t('Delete site {name} failed', { name: 'alpha' })).toBe('Delete site alpha failed');
  });

  it('translates to Simplified Chinese and remembers the choice', () => {
    setLocale('zh');
    expect(t('Timeout, try later.')).toBe('请求超时，请稍后再试。');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('zh');
    expect(storedLocale()).toBe('zh');
  });

  it('defaults to Chinese when nothing is stored', () => {
    expect(storedLocale()).toBe('zh');
  });
});
