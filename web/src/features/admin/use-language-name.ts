import { useTranslation } from 'react-i18next';
import { Language } from '@/gen/repairs/type/v1/common_pb';

/** The name of an account's preferred language. */
export function useLanguageName() {
  const { t } = useTranslation();
  return (language: Language) =>
    t(language === Language.FR ? 'languageSwitch.french' : 'languageSwitch.english');
}
