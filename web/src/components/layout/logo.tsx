import { Box, Text } from '@chakra-ui/react';
import { Wrench } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { FINGER_TARGET } from '@/theme';
import { LocalizedLink } from '../localized-navigation';

/** The product's name and mark, linking to the home page of the current language. */
export function Logo() {
  const { t } = useTranslation();
  return (
    <Box asChild display="inline-flex" alignItems="center" gap="2" {...FINGER_TARGET}>
      <LocalizedLink to="/" aria-label={t('a11y.homeLink')}>
        <Box bg="accent.solid" color="white" borderRadius="md" p="1.5" aria-hidden>
          <Wrench size={20} />
        </Box>
        <Text as="span" fontWeight="extrabold" fontSize="xl" color="brand.900" whiteSpace="nowrap">
          {t('app.name')}
        </Text>
      </LocalizedLink>
    </Box>
  );
}
