import { Box, HStack, Text } from '@chakra-ui/react';
import { Wrench } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LocalizedLink } from '../localized-navigation';

/** The product's name and mark, linking to the home page of the current language. */
export function Logo() {
  const { t } = useTranslation();
  return (
    <LocalizedLink to="/" aria-label={t('a11y.homeLink')}>
      <HStack gap="2">
        <Box bg="accent.solid" color="white" borderRadius="md" p="1.5" aria-hidden>
          <Wrench size={20} />
        </Box>
        <Text as="span" fontWeight="extrabold" fontSize="xl" color="brand.900" whiteSpace="nowrap">
          {t('app.name')}
        </Text>
      </HStack>
    </LocalizedLink>
  );
}
