// Keys are the English texts of the spec, so English needs no resource file and every text of the
// spec can be found verbatim in the source. Placeholders use the spec's own `{name}` form.
import i18next, { type TFunction } from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { DEFAULT_LOCALE } from '@/app/constants';

export const LOCALES = [
  { value: 'zh', label: '简体中文' },
  { value: 'en', label: 'English' },
] as const;
export type Locale = (typeof LOCALES)[number]['value'];

export const LOCALE_STORAGE_KEY = 'patrol.locale';

/** Every file of `./zh/` contributes texts; a screen's engineer adds a file instead of editing a shared one. */
function loadZh(): Record<string, string> {
  const modules = import.meta.glob<Record<string, unknown>>('./zh/*.ts', { eager: true });
  const merged: Record<string, string> = {};
  for (const mod of Object.values(modules)) {
    for (const value of Object.values(mod)) {
      if (value && typeof value === 'object') Object.assign(merged, value);
    }
  }
  return merged;
}

function isLocale(value: unknown): value is Locale {
  return LOCALES.some((l) => l.value === value);
}

export function storedLocale(): Locale {
  try {
    const value = localStorage.getItem(LOCALE_STORAGE_KEY);
    return isLocale(value) ? value : (DEFAULT_LOCALE as Locale);
  } catch {
    return DEFAULT_LOCALE as Locale;
  }
}

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: storedLocale(),
  fallbackLng: 'en',
  resources: { zh: { translation: loadZh() }, en: { translation: {} } },
  // English sentences contain ':' and '.', which must not split keys.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { prefix: '{', suffix: '}', escapeValue: false },
  returnEmptyString: false,
  initAsync: false,
  showSupportNotice: false,
});

if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;

export function setLocale(locale: Locale): void {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  void i18n.changeLanguage(locale);
  document.documentElement.lang = locale;
}

export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : (DEFAULT_LOCALE as Locale);
}

/** Translate outside React (request layer, toasts). */
export const t: TFunction = ((...args: Parameters<TFunction>) => i18n.t(...args)) as TFunction;

/** Translate inside React; re-renders when the locale changes. */
export function useT(): TFunction {
  return useTranslation(undefined, { i18n }).t;
}
