import { Code } from '@connectrpc/connect';
import { HStack, Stack } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { PhotoPicker } from '@/components/photos/photo-picker';
import {
  photosBusy,
  photosTaken,
  usePhotoUploads,
  type PhotoUpload,
} from '@/components/photos/photo-uploads';
import { FormAlert } from '@/components/ui/form-alert';
import { LinkButton } from '@/components/ui/links';
import { toaster } from '@/components/ui/toast';
import { REQUEST_PHOTOS_MAX } from '@/lib/files';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { newRequestId } from '@/lib/request-id';
import { readRpcError } from '@/lib/rpc-error';
import { useRequestPhotoUpload } from '../api/add-repair-request-photo';
import { useCreateRepairRequest } from '../api/create-repair-request';
import { RequestForm, type RepairRequestDraft } from '../components/request-form';
import { REQUEST_PATHS } from '../paths';

/**
 * Refusals after which nothing was placed: the next press is a new attempt with a new key.
 * After any other failure (the network, a server that did not answer) the request may have
 * been placed, so the next press resends the same key and gets that request back.
 */
const NOTHING_PLACED = [Code.InvalidArgument, Code.FailedPrecondition, Code.NotFound];

/** What is typed in the form is kept under this name until the request is placed. */
const CREATE_REQUEST_DRAFT = 'create-request';

const allSent = (items: PhotoUpload[]) => items.every(({ state }) => state.kind === 'sent');

/**
 * /create-request: the request form, with up to 8 photos of the damage. One idempotency key
 * per attempt, so a double press or a retry after a lost answer places one request and
 * notifies the professionals once. What is typed is kept in the browser until the request is
 * placed: a session that ends meanwhile loses nothing. Once placed, the photos chosen are
 * sent to it one by one, each with its progress; when all went the page moves on, and a
 * photo refused or failed stays on the page with why (and Try again), the request placed.
 */
export function CreateRequestPage() {
  const { t } = useTranslation();
  const navigate = useLocalizedNavigate();
  const create = useCreateRepairRequest();
  const uploader = useRequestPhotoUpload();
  const { uploads, items } = usePhotoUploads();
  const [requestId, setRequestId] = useState(newRequestId);
  const [placed, setPlaced] = useState<string | null>(null);
  const busy = photosBusy(items);
  const done = placed !== null && !busy && allSent(items);

  useEffect(() => {
    if (done) void navigate(REQUEST_PATHS.created, { state: { id: placed } });
  }, [done, placed, navigate]);

  const send = async (draft: RepairRequestDraft) => {
    try {
      // The professionals' alerts wait for the photos, so they count them.
      const photosToFollow = photosTaken(items);
      const { repairRequest } = await create.mutateAsync({ requestId, draft, photosToFollow });
      const id = repairRequest?.id ?? '';
      if (photosToFollow === 0) {
        void navigate(REQUEST_PATHS.created, { state: { id } });
        return;
      }
      setPlaced(id);
      // The refused photos would never go: they leave with the form.
      for (const item of items) if (item.state.kind === 'refused') uploads.remove(item.key);
      uploads.sendAll(uploader(id));
    } catch (error) {
      const problem = readRpcError(error);
      if (problem.reason === 'REQUEST_ID_REUSED') {
        // An earlier press placed the request (its answer was lost) before the form changed.
        toaster.create({ type: 'info', title: t('requests.alreadyPlaced') });
        void navigate(REQUEST_PATHS.pending);
        return;
      }
      if (NOTHING_PLACED.includes(problem.code)) setRequestId(newRequestId());
      throw error;
    }
  };

  const picker = (
    <PhotoPicker
      label={t('photos.damage')}
      help={t('photos.help')}
      items={items}
      max={REQUEST_PHOTOS_MAX}
      onChoose={(files) => uploads.add(files, REQUEST_PHOTOS_MAX)}
      onRemove={(key) => uploads.remove(key)}
      onRetry={(key) => uploads.retry(key)}
      waitingText={t('photos.waitingForRequest')}
    />
  );

  return (
    <Stack gap="6" maxW="3xl">
      <PageTitle title={t('pages.createRequest')} />
      {placed === null ? (
        <RequestForm
          submitLabel={t('requests.create')}
          draftName={CREATE_REQUEST_DRAFT}
          onSend={send}
          sending={create.isPending}
        >
          {picker}
        </RequestForm>
      ) : (
        <Stack gap="5">
          <FormAlert status="success" title={t('requests.created')}>
            {busy ? t('photos.sendingToRequest') : t('photos.someNotSent')}
          </FormAlert>
          {picker}
          {!busy && (
            <HStack gap="4" wrap="wrap">
              <LinkButton to={REQUEST_PATHS.view(placed)} colorPalette="brand">
                {t('requests.viewCreated')}
              </LinkButton>
            </HStack>
          )}
        </Stack>
      )}
    </Stack>
  );
}
