import { Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { reasonMessageKey } from '@/lib/error-reasons';
import { checkUpload, IMAGE_TYPES } from '@/lib/files';
import { formatNumber } from '@/lib/money';
import { useLanguage } from '@/lib/use-language';

/** CreateServiceRequest.icon: at most 1 MiB. */
export const ICON_MAX_BYTES = 1024 * 1024;

interface IconFieldProps {
  /** The file chosen, if any. */
  file: File | null;
  onChange: (file: File | null, problem: string | null) => void;
  /** A refusal (ours or the server's) to show under the field. */
  problem: string | null;
  /** The icon shown today; empty for the default. */
  currentUrl?: string;
}

/**
 * The service icon: a PNG, JPEG or WebP of at most 1 MiB, checked when chosen; the chosen
 * file's name, type and size are shown, and a refused one says why.
 */
export function IconField({ file, onChange, problem, currentUrl }: IconFieldProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const choose = (chosen: File | undefined) => {
    if (!chosen) return onChange(null, null);
    const refused = checkUpload(chosen, IMAGE_TYPES, ICON_MAX_BYTES);
    const key =
      refused === 'FILE_TOO_LARGE'
        ? 'serviceAdmin.iconTooLarge'
        : refused && reasonMessageKey(refused);
    onChange(refused ? null : chosen, key ? t(key) : null);
  };
  const kilobytes = (bytes: number) =>
    formatNumber(Math.max(1, Math.round(bytes / 1024)), language);
  return (
    <Field.Root invalid={Boolean(problem)}>
      <Field.Label>{t('serviceAdmin.icon')}</Field.Label>
      <Stack gap="2" w="full">
        {currentUrl && !file && (
          <HStack gap="3">
            <img src={currentUrl} alt="" width={40} height={40} />
            <Text fontSize="sm">{t('serviceAdmin.currentIcon')}</Text>
          </HStack>
        )}
        <Input
          type="file"
          accept={IMAGE_TYPES.join(',')}
          p="1"
          onChange={(event) => choose(event.target.files?.[0])}
        />
        {file && (
          <Text fontSize="sm" role="status">
            {t('serviceAdmin.iconChosen', {
              name: file.name,
              type: file.type,
              size: kilobytes(file.size),
            })}
          </Text>
        )}
      </Stack>
      <Field.HelperText color={problem ? 'fg.error' : undefined}>
        {problem ?? t('serviceAdmin.iconHelp')}
      </Field.HelperText>
    </Field.Root>
  );
}
