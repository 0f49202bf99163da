import { Button, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '@/components/ui/form-alert';

/**
 * Said when a save was refused because someone else saved first (ETAG_MISMATCH): nothing was
 * overwritten, and the latest version can be loaded with what was typed kept.
 */
export function StaleEtagAlert({
  title,
  help,
  onLoadLatest,
}: {
  /** What happened, naming what was edited (this page, this service). */
  title: string;
  /** What loading the latest version does. */
  help: string;
  onLoadLatest: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [loading, setLoading] = useState(false);
  const load = async () => {
    setLoading(true);
    try {
      await onLoadLatest();
    } finally {
      setLoading(false);
    }
  };
  return (
    <FormAlert title={title}>
      <Stack gap="3" align="start">
        <Text>{help}</Text>
        <Button size="sm" colorPalette="brand" loading={loading} onClick={() => void load()}>
          {t('pageEditor.loadLatest')}
        </Button>
      </Stack>
    </FormAlert>
  );
}
