import { Box, Button, HStack, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import type { i18n as I18n } from 'i18next';
import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormSection } from '@/components/ui/form-section';
import { DataExportState, type DataExport } from '@/gen/repairs/accounts/v1/accounts_pb';
import { formatFigure, megabytes } from '@/lib/contract-limits';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { FINGER_TARGET } from '@/theme';
import { useDataExport } from '../api/get-data-export';
import { useRequestDataExport } from '../api/request-data-export';

const KIB = 1024;

/** An archive's size as the reader writes it: "640 KB", "2.4 MB" ("2,4 Mo" in French). */
function formatArchiveSize(i18n: I18n, bytes: number): string {
  if (bytes < KIB * KIB) {
    return i18n.t('dataExport.sizeKb', {
      size: formatFigure(i18n, Math.max(1, Math.round(bytes / KIB))),
    });
  }
  return i18n.t('dataExport.sizeMb', {
    size: formatFigure(i18n, Math.round(megabytes(bytes) * 10) / 10),
  });
}

const requestedMs = (copy: DataExport) => (copy.requestedAt ? timestampMs(copy.requestedAt) : 0);

/**
 * The copy to show: the one asked for last. The answer to the request shows at once, before
 * GetDataExport reloads; the reloaded one wins when it is the same copy (it is newer news).
 */
function latest(loaded?: DataExport, asked?: DataExport): DataExport | undefined {
  if (!loaded || !asked) return loaded ?? asked;
  return requestedMs(asked) > requestedMs(loaded) ? asked : loaded;
}

/**
 * "A copy of your data" (Law 25's portability, PIPEDA's access): what the archive holds, the
 * button that has it prepared (AccountsService.RequestDataExport), and where it stands
 * (GetDataExport, asked again every few seconds while it is prepared): being prepared, ready
 * with its download link and until when it stays, or failed or deleted, to be asked again.
 * For a customer's or a professional's own account (the session's transport says whose).
 */
export function DataExportSection() {
  const { t } = useTranslation();
  const loaded = useDataExport();
  const request = useRequestDataExport();
  const copy = latest(loaded.data?.export, request.data?.export);
  const preparing = copy?.state === DataExportState.PREPARING;
  const known = !loaded.isPending || request.data !== undefined;
  const again =
    copy?.state === DataExportState.READY ||
    copy?.state === DataExportState.FAILED ||
    copy?.state === DataExportState.EXPIRED;

  return (
    <FormSection title={t('dataExport.title')} description={t('dataExport.intro')}>
      <Text>{t('dataExport.contents')}</Text>
      <Text color="fg.muted">{t('dataExport.others')}</Text>
      {loaded.error && <RpcErrorAlert error={loaded.error} />}
      {/* Always there, so that "being prepared" and "ready" are read out as they come. */}
      <Box role="status">{copy && <ExportStatus copy={copy} />}</Box>
      {request.error && <RpcErrorAlert error={request.error} />}
      {known && !preparing && (
        <Button
          colorPalette="brand"
          variant={copy?.state === DataExportState.READY ? 'outline' : 'solid'}
          alignSelf="start"
          minH="11"
          loading={request.isPending}
          onClick={() => request.mutate({})}
        >
          {t(again ? 'dataExport.askAgain' : 'dataExport.ask')}
        </Button>
      )}
    </FormSection>
  );
}

/** Where one copy stands, in words, with its link once ready. */
function ExportStatus({ copy }: { copy: DataExport }) {
  const { t, i18n } = useTranslation();
  const formatTime = useDateTimeFormat();
  const byAdmin = copy.requestedByAdmin && <Text color="fg.muted">{t('dataExport.byAdmin')}</Text>;
  switch (copy.state) {
    case DataExportState.PREPARING:
      return (
        <Stack gap="1">
          <HStack gap="3">
            <Spinner size="sm" color="brand.solid" aria-hidden />
            <Text fontWeight="semibold">{t('dataExport.preparing')}</Text>
          </HStack>
          <Text color="fg.muted">{t('dataExport.preparingHelp')}</Text>
          {byAdmin}
        </Stack>
      );
    case DataExportState.READY:
      return (
        <Stack gap="2" align="start">
          <Text fontWeight="semibold">{t('dataExport.ready')}</Text>
          {byAdmin}
          <Link
            href={copy.downloadUrl}
            download
            color="brand.fg"
            fontWeight="semibold"
            textDecoration="underline"
            {...FINGER_TARGET}
          >
            <Download aria-hidden size={18} />
            {t('dataExport.download', {
              size: formatArchiveSize(i18n, Number(copy.sizeBytes)),
            })}
          </Link>
          <Text color="fg.muted">
            {t('dataExport.availableUntil', { time: formatTime(copy.expiresAt) })}
          </Text>
        </Stack>
      );
    case DataExportState.FAILED:
      return <Text fontWeight="semibold">{t('dataExport.failed')}</Text>;
    case DataExportState.EXPIRED:
      return <Text fontWeight="semibold">{t('dataExport.expired')}</Text>;
    default:
      return null;
  }
}
