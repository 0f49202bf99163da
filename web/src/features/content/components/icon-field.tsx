import { Field, HStack, Image, Input, Stack, Text } from '@chakra-ui/react';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { IMAGE_TYPES } from '@/lib/files';
import { formatNumber } from '@/lib/money';
import { useLanguage } from '@/lib/use-language';
import { useObjectUrl } from '@/lib/use-object-url';
import { iconRefusal } from '../service-form';

interface IconFieldProps {
  /** The file chosen, if any. */
  file: File | null;
  onChange: (file: File | null) => void;
  /** Why the file is refused (ours or the server's), shown under the field. */
  error?: string;
  /** The icon shown today; empty for the default. */
  currentUrl?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * The service icon: a PNG, JPEG or WebP of at most 1 MiB. The icon today is shown until a file
 * is chosen; then that file, as it will look, with its name, type and size, or why it is
 * refused.
 */
export function IconField({ file, onChange, error, currentUrl, inputRef }: IconFieldProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [preview, showPreview] = useObjectUrl();
  const kilobytes = (bytes: number) =>
    formatNumber(Math.max(1, Math.round(bytes / 1024)), language);
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{t('serviceAdmin.icon')}</Field.Label>
      <Stack gap="2" w="full">
        {currentUrl && !file && (
          <HStack gap="3">
            <Image src={currentUrl} alt="" boxSize="10" objectFit="contain" />
            <Text fontSize="sm">{t('serviceAdmin.currentIcon')}</Text>
          </HStack>
        )}
        <Input
          ref={inputRef}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          p="1"
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            showPreview(chosen && !iconRefusal(chosen) ? chosen : null);
            onChange(chosen);
          }}
        />
        {file && (
          <HStack gap="3" role="status">
            {preview && !error && (
              <Image
                src={preview}
                alt={t('serviceAdmin.iconPreview')}
                boxSize="10"
                objectFit="contain"
                borderWidth="1px"
                borderRadius="md"
              />
            )}
            <Text fontSize="sm">
              {t('serviceAdmin.iconChosen', {
                name: file.name,
                type: file.type,
                size: kilobytes(file.size),
              })}
            </Text>
          </HStack>
        )}
      </Stack>
      {error ? (
        <Field.ErrorText>{error}</Field.ErrorText>
      ) : (
        <Field.HelperText>{t('serviceAdmin.iconHelp')}</Field.HelperText>
      )}
    </Field.Root>
  );
}
