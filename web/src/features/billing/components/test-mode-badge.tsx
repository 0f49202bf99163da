import { Badge } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** 'TEST MODE' on everything the offline test gateway touches: no money moves there. */
export function TestModeBadge() {
  const { t } = useTranslation();
  return (
    <Badge bg="orange.700" color="white" size="md" alignSelf="flex-start">
      {t('billing.testMode')}
    </Badge>
  );
}
