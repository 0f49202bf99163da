import { Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/ui/links';
import type { TranslationKey } from '@/lib/translation-key';

export interface AuthLink {
  /** The sentence before the link ("Already have an account?"). */
  promptKey: TranslationKey;
  labelKey: TranslationKey;
  path: string;
}

/** The "go elsewhere" lines under an auth card, each link in the page's language. */
export function AuthLinks({ links }: { links: AuthLink[] }) {
  const { t } = useTranslation();
  return (
    <>
      {links.map(({ promptKey, labelKey, path }) => (
        <Text key={path}>
          {t(promptKey)}{' '}
          <AppLink to={path} inline color="brand.fg" fontWeight="semibold">
            {t(labelKey)}
          </AppLink>
        </Text>
      ))}
    </>
  );
}
