import { Button, Group } from '@chakra-ui/react';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { reloadTo } from '@/lib/browser';
import {
  LANGUAGE_SWITCH_DELAY_MS,
  pathInLanguage,
  storeLanguage,
  type Language,
} from '@/lib/language';
import { browserStore } from '@/lib/storage';
import { useLanguage } from '@/lib/use-language';
import { FlagEnglish, FlagFrench } from './flags';
import { FullPageLoader } from './full-page-loader';

const CHOICES: {
  language: Language;
  code: string;
  nameKey: 'languageSwitch.english' | 'languageSwitch.french';
  flag: ReactNode;
}[] = [
  { language: 'en', code: 'EN', nameKey: 'languageSwitch.english', flag: <FlagEnglish /> },
  { language: 'fr', code: 'FR', nameKey: 'languageSwitch.french', flag: <FlagFrench /> },
];

/**
 * The EN and FR flag buttons of every header (named "EN English" and "FR Français"). Choosing one stores it in localStorage `lang`,
 * shows a full-page loader and, after 2000 ms, loads the same page in that language
 * (its /fr twin, or its English twin).
 */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const current = useLanguage();
  const { pathname, search, hash } = useLocation();
  const [target, setTarget] = useState<Language | null>(null);

  useEffect(() => {
    if (target === null) return;
    const url = `${pathInLanguage(pathname, target)}${search}${hash}`;
    const timer = window.setTimeout(() => reloadTo(url), LANGUAGE_SWITCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [target, pathname, search, hash]);

  const choose = (language: Language) => {
    storeLanguage(browserStore(), language);
    setTarget(language);
  };

  return (
    <>
      <Group role="group" aria-label={t('languageSwitch.label')} attached>
        {CHOICES.map(({ language, code, nameKey, flag }) => (
          <Button
            key={language}
            size="sm"
            variant={language === current ? 'solid' : 'outline'}
            colorPalette="brand"
            // The name starts with the visible code (WCAG 2.5.3), then says the language.
            aria-label={`${code} ${t(nameKey)}`}
            aria-pressed={language === current}
            lang={language}
            disabled={target !== null}
            onClick={() => choose(language)}
          >
            {flag}
            {code}
          </Button>
        ))}
      </Group>
      {target && (
        <FullPageLoader label={t('languageSwitch.loading', { lng: target })} lang={target} />
      )}
    </>
  );
}
