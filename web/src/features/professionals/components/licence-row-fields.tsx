import { CloseButton, HStack, Input, SimpleGrid } from '@chakra-ui/react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField } from '@/components/ui/form-field';
import { AddLicenceRequestSchema } from '@/gen/repairs/accounts/v1/accounts_pb';
import { fitsMaxLen, limitOf } from '@/lib/contract-limits';
import { LICENCE_MAX_BYTES, LICENCE_TYPES, checkUpload } from '@/lib/files';
import { reasonMessageKey } from '@/lib/error-reasons';
import { notBlank } from '@/lib/validation';

export interface LicenceRowValues {
  label: string;
  files: FileList | null;
}

export interface LicenceValues {
  rows: LicenceRowValues[];
}

/** AddLicenceRequest.label's rules. */
const LABEL = limitOf(AddLicenceRequestSchema, 'label');

/** One licence row: what it is for and its file; a half-filled row says what is missing. */
export function LicenceRowFields({ index, onRemove }: { index: number; onRemove?: () => void }) {
  const { t, i18n } = useTranslation();
  const {
    register,
    getValues,
    formState: { errors },
  } = useFormContext<LicenceValues>();
  const rowErrors = errors.rows?.[index];
  const number = index + 1;
  return (
    <HStack
      align="start"
      gap="3"
      borderWidth="1px"
      borderRadius="md"
      p="3"
      role="group"
      aria-label={t('licences.row', { number })}
    >
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="3" flex="1">
        <FormField label={t('licences.label')} error={rowErrors?.label?.message}>
          <Input
            placeholder={t('licences.labelPlaceholder')}
            {...register(`rows.${index}.label`, {
              validate: (value) => {
                const hasFile = (getValues(`rows.${index}.files`)?.length ?? 0) > 0;
                if (hasFile && !notBlank(value)) return t('licences.errors.labelRequired');
                return fitsMaxLen(i18n, LABEL, value);
              },
            })}
          />
        </FormField>
        <FormField
          label={t('licences.file')}
          error={rowErrors?.files?.message}
          helperText={t('licences.fileHelp')}
        >
          <Input
            type="file"
            p="1"
            accept={LICENCE_TYPES.join(',')}
            {...register(`rows.${index}.files`, {
              validate: (files) => {
                const file = files?.[0];
                if (!file) {
                  return (
                    !notBlank(getValues(`rows.${index}.label`)) || t('licences.errors.fileRequired')
                  );
                }
                const key = reasonMessageKey(
                  checkUpload(file, LICENCE_TYPES, LICENCE_MAX_BYTES) ?? '',
                );
                return key ? t(key) : true;
              },
            })}
          />
        </FormField>
      </SimpleGrid>
      {onRemove && (
        <CloseButton
          size="sm"
          aria-label={t('licences.removeRow', { number })}
          onClick={onRemove}
        />
      )}
    </HStack>
  );
}
