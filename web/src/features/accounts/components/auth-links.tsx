import { Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/ui/links';
import { pathInLanguage } from '@/lib/language';
import type { TranslationKey } from '@/lib/translation-key';
import { useLanguage } from '@/lib/use-language';

export interface AuthLink {
  /** The sentence before the link ("Already have an account?"). */
  promptKey: TranslationKey;
  labelKey: TranslationKey;
  path: string;
}

/** The "go elsewhere" lines under an auth card, each link in the page's language. */
export function AuthLinks({ links }: { links: AuthLink[] }) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <>
      {links.map(({ promptKey, labelKey, path }) => (
        <Text key={path}>
          {t(promptKey)}{' '}
          <AppLink to={pathInLanguage(path, language)} color="brand.fg" fontWeight="semibold">
            {t(labelKey)}
          </AppLink>
        </Text>
      ))}
    </>
  );
}
