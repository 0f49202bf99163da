import { Heading, Stack, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DamagePhotos } from '@/components/photos/damage-photos';
import { PhotoPicker } from '@/components/photos/photo-picker';
import { usePhotoUploads } from '@/components/photos/photo-uploads';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { toaster } from '@/components/ui/toast';
import type { Photo, RepairRequest } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { REQUEST_PHOTOS_MAX } from '@/lib/files';
import { readRpcError } from '@/lib/rpc-error';
import { useRequestPhotoUpload } from '../api/add-repair-request-photo';
import { useRemoveRepairRequestPhoto } from '../api/remove-repair-request-photo';

/**
 * The photos of the damage on the customer's request page: thumbnails that open large, and
 * while the request is open, Remove under each and the picker to add more (up to 8), each
 * sent at once with its progress.
 */
export function RequestPhotos({
  request,
  editable,
}: {
  request: RepairRequest;
  editable: boolean;
}) {
  const { t } = useTranslation();
  const problemMessage = useProblemMessage();
  const uploader = useRequestPhotoUpload();
  const upload = useMemo(() => uploader(request.id), [uploader, request.id]);
  const { uploads, items } = usePhotoUploads({ upload, forgetSent: true });
  const remove = useRemoveRepairRequestPhoto();

  const removePhoto = async (photo: Photo) => {
    try {
      await remove.mutateAsync({ repairRequestId: request.id, photoId: photo.id });
      toaster.create({ type: 'success', title: t('photos.removed') });
    } catch (error) {
      toaster.create({ type: 'error', title: problemMessage(readRpcError(error)) });
      throw error;
    }
  };

  return (
    <Stack as="section" gap="4" aria-labelledby="photos-heading">
      <Heading as="h2" id="photos-heading" size="lg" color="brand.900">
        {t('photos.damage')}
      </Heading>
      {request.photos.length === 0 && !editable && <Text color="fg.muted">{t('photos.none')}</Text>}
      <DamagePhotos photos={request.photos} onRemove={editable ? removePhoto : undefined} />
      {editable && (
        <PhotoPicker
          label={t('photos.add')}
          help={t('photos.help')}
          items={items}
          max={REQUEST_PHOTOS_MAX}
          existing={request.photos.length}
          onChoose={(files) => uploads.add(files, REQUEST_PHOTOS_MAX - request.photos.length)}
          onRemove={(key) => uploads.remove(key)}
          onRetry={(key) => uploads.retry(key)}
        />
      )}
    </Stack>
  );
}
