import { useTranslation } from 'react-i18next';
import { parseLanguage, type Language } from './language';

/** The language the page is rendered in. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return parseLanguage(i18n.resolvedLanguage ?? i18n.language);
}
