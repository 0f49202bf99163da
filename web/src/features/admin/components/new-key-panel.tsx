import { Alert, Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { Check, Copy } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface NewKeyPanelProps {
  /** The service account the key opens. */
  name: string;
  /** The key, as the server answered it: shown this once. */
  secret: string;
  onDone: () => void;
}

/**
 * A service account's key right after it was made or rotated: the only time anyone sees it,
 * with a copy button and a reminder to store it now.
 */
export function NewKeyPanel({ name, secret, onDone }: NewKeyPanelProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(secret).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <Alert.Root status="warning" role="region" aria-label={t('serviceAccounts.keyFor', { name })}>
      <Alert.Indicator />
      <Alert.Content>
        <Stack gap="3" w="full">
          <Alert.Title>{t('serviceAccounts.keyFor', { name })}</Alert.Title>
          <Alert.Description>{t('serviceAccounts.keyOnce')}</Alert.Description>
          <label htmlFor={inputId}>
            <Text fontWeight="medium">{t('serviceAccounts.key')}</Text>
          </label>
          <HStack gap="2" wrap="wrap">
            <Input
              id={inputId}
              readOnly
              value={secret}
              fontFamily="mono"
              fontSize="sm"
              flex="1"
              minW="0"
              onFocus={(event) => event.currentTarget.select()}
            />
            <Button colorPalette="brand" onClick={copy}>
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
              {t('serviceAccounts.copy')}
            </Button>
          </HStack>
          <Text role="status" fontSize="sm">
            {copied === true && t('serviceAccounts.copied')}
            {copied === false && t('serviceAccounts.copyFailed')}
          </Text>
          <Button alignSelf="flex-start" variant="outline" onClick={onDone}>
            {t('serviceAccounts.stored')}
          </Button>
        </Stack>
      </Alert.Content>
    </Alert.Root>
  );
}
