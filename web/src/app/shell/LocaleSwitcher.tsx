import { Button, Menu, MenuItemRadio, MenuList, MenuPopover, MenuTrigger, Tooltip } from '@fluentui/react-components';
import { LocalLanguageRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { currentLocale, LOCALES, type Locale, setLocale, useT } from '@/i18n';

export function LocaleSwitcher({ appearance = 'subtle' }: { appearance?: 'subtle' | 'transparent' }): ReactNode {
  const t = useT();
  const locale = currentLocale();
  const label = LOCALES.find((l) => l.value === locale)?.label ?? locale;
  return (
    <Menu
      checkedValues={{ locale: [locale] }}
      onCheckedValueChange={(_, data) => setLocale(data.checkedItems[0] as Locale)}
    >
      <MenuTrigger disableButtonEnhancement>
        <Tooltip content={t('Language')} relationship="description">
          <Button appearance={appearance} icon={<LocalLanguageRegular />} aria-label={t('Language')}>
            {label}
          </Button>
        </Tooltip>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {LOCALES.map((l) => (
            <MenuItemRadio key={l.value} name="locale" value={l.value}>
              {l.label}
            </MenuItemRadio>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
