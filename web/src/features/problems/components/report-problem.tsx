import { Button, Heading, Stack, Text, Textarea } from '@chakra-ui/react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { PhotoPicker } from '@/components/photos/photo-picker';
import { photosBusy, usePhotoUploads } from '@/components/photos/photo-uploads';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { toaster } from '@/components/ui/toast';
import {
  ReportJobProblemRequestSchema,
  type RepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { bound, formatFigure, limitOf, megabytes } from '@/lib/contract-limits';
import { PHOTO_MAX_BYTES } from '@/lib/files';
import { newRequestId } from '@/lib/request-id';
import { readRpcError } from '@/lib/rpc-error';
import { useDateFormat } from '@/lib/use-date-format';
import { useProblemPhotoUpload, useReportJobProblem } from '../api/job-problems';
import { mayReportProblem } from '../may-report';

/** The contract's bounds on a report: ReportJobProblemRequest's text and photo_ids. */
const TEXT_MAX = bound(limitOf(ReportJobProblemRequestSchema, 'text').maxLen, 'problem text');
const PHOTOS_MAX = bound(
  limitOf(ReportJobProblemRequestSchema, 'photoIds').maxItems,
  'problem photos',
);

/**
 * On the customer's completed request, until its deadline (completion + 14 days): "Report a
 * problem", opening a form with what is wrong and up to 6 photos (each sent as it is chosen).
 * The report is sent under a key made once per report, so a second press never reports twice.
 */
export function ReportProblem({ request }: { request: RepairRequest }) {
  const { t, i18n } = useTranslation();
  const formatDate = useDateFormat('long');
  const [open, setOpen] = useState(false);
  const formId = useId();
  if (!mayReportProblem(request)) return null;
  return (
    <Stack gap="3" borderWidth="1px" borderRadius="lg" bg="bg" p={{ base: '4', md: '5' }}>
      <Heading as="h2" size="md" color="brand.900">
        {t('problems.reportTitle')}
      </Heading>
      <Text color="fg.muted">
        {t('problems.reportUntil', { date: formatDate(request.problemReportDeadline) })}
      </Text>
      {!open && (
        <Button
          alignSelf="start"
          colorPalette="brand"
          variant="outline"
          minH="11"
          aria-expanded={false}
          aria-controls={formId}
          onClick={() => setOpen(true)}
        >
          {t('problems.report')}
        </Button>
      )}
      {open && (
        <ReportForm
          id={formId}
          request={request}
          onDone={() => setOpen(false)}
          photosHelp={t('problems.photosHelp', {
            max: formatFigure(i18n, PHOTOS_MAX),
            size: formatFigure(i18n, megabytes(PHOTO_MAX_BYTES)),
          })}
        />
      )}
    </Stack>
  );
}

function ReportForm({
  id,
  request,
  onDone,
  photosHelp,
}: {
  id: string;
  request: RepairRequest;
  onDone: () => void;
  photosHelp: string;
}) {
  const { t } = useTranslation();
  const problemMessage = useProblemMessage();
  const report = useReportJobProblem();
  const [key] = useState(newRequestId);
  const [text, setText] = useState('');
  const [textError, setTextError] = useState<string | undefined>();
  const [refusal, setRefusal] = useState<string | undefined>();
  const { uploads, items } = usePhotoUploads({ upload: useProblemPhotoUpload(request.id) });
  const photoIds = items.flatMap(({ state }) => (state.kind === 'sent' ? [state.photo.id] : []));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') {
      setTextError(t('problems.textRequired'));
      return;
    }
    setTextError(undefined);
    report.mutate(
      { repairRequestId: request.id, text: text.trim(), photoIds, requestId: key },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: t('problems.reported') });
          onDone();
        },
        onError: (failure) => setRefusal(problemMessage(readRpcError(failure))),
      },
    );
  };

  return (
    <form id={id} noValidate onSubmit={submit} aria-label={t('problems.reportTitle')}>
      <Stack gap="4">
        {refusal && <FormAlert status="error" title={refusal} />}
        <FormField label={t('problems.textLabel')} error={textError} required>
          <Textarea
            rows={5}
            maxLength={TEXT_MAX}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </FormField>
        <PhotoPicker
          label={t('problems.photosLabel')}
          help={photosHelp}
          items={items}
          max={PHOTOS_MAX}
          onChoose={(files) => uploads.add(files, PHOTOS_MAX)}
          onRemove={(photo) => uploads.remove(photo)}
          onRetry={(photo) => uploads.retry(photo)}
        />
        <Stack direction="row" gap="3" wrap="wrap">
          <Button
            type="submit"
            colorPalette="brand"
            minH="11"
            loading={report.isPending}
            disabled={photosBusy(items)}
          >
            {t('problems.send')}
          </Button>
          <Button variant="ghost" minH="11" onClick={onDone}>
            {t('problems.cancel')}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}
