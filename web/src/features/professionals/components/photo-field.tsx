import { Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { checkUpload, fileBytes, IMAGE_TYPES } from '@/lib/files';
import { reasonMessageKey } from '@/lib/error-reasons';
import { readRpcError } from '@/lib/rpc-error';
import { useObjectUrl } from '@/lib/use-object-url';
import { useSetProfessionalPhoto } from '../api/set-professional-photo';
import { ProfessionalAvatar } from './professional-avatar';

interface PhotoFieldProps {
  professionalId: string;
  name: string;
  photoUrl: string;
}

/**
 * The profile photo: choosing a JPEG, PNG or WebP of up to 5 MiB shows it at once and sends
 * it (AccountsService.SetProfessionalPhoto); a refused file says why under the field.
 */
export function PhotoField({ professionalId, name, photoUrl }: PhotoFieldProps) {
  const { t } = useTranslation();
  const problemMessage = useProblemMessage();
  const upload = useSetProfessionalPhoto();
  const [preview, showPreview] = useObjectUrl();
  const [problem, setProblem] = useState<string | null>(null);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const refused = checkUpload(file, IMAGE_TYPES);
    const refusedKey = refused && reasonMessageKey(refused);
    if (refusedKey) {
      setProblem(t(refusedKey));
      return;
    }
    setProblem(null);
    showPreview(file);
    upload.mutate(
      { id: professionalId, contentType: file.type, content: await fileBytes(file) },
      { onError: (error) => setProblem(problemMessage(readRpcError(error))) },
    );
  };

  return (
    <HStack gap="5" align="center">
      <ProfessionalAvatar name={name} photoUrl={preview ?? photoUrl} />
      <Field.Root invalid={Boolean(problem)}>
        <Stack gap="1">
          <Field.Label>{t('professionalProfile.photo')}</Field.Label>
          <Input
            type="file"
            accept={IMAGE_TYPES.join(',')}
            p="1"
            onChange={(event) => void choose(event)}
          />
          <Field.HelperText color={problem ? 'fg.error' : undefined}>
            {problem ?? t('professionalProfile.photoHelp')}
          </Field.HelperText>
          {upload.isSuccess && !problem && (
            <Text role="status" color="green.700" fontSize="sm">
              {t('professionalProfile.photoSaved')}
            </Text>
          )}
        </Stack>
      </Field.Root>
    </HStack>
  );
}
