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
import type { TranslationKey } from '@/lib/translation-key';
import { useDataExport, type DataExportOwner } from '../api/get-data-export';
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

/** The section's words: to the person themself, or to an admin about the person. */
interface ExportTexts {
  title: TranslationKey;
  intro: TranslationKey;
  contents: TranslationKey;
  others: TranslationKey;
  ask: TranslationKey;
  askAgain: TranslationKey;
  preparing: TranslationKey;
  preparingHelp: TranslationKey;
  ready: TranslationKey;
  download: TranslationKey;
  failed: TranslationKey;
  expired: TranslationKey;
  byAdmin: TranslationKey;
  /** An admin's view only: the person asked for it themself. */
  byPerson?: TranslationKey;
}

const OWN_TEXTS: ExportTexts = {
  title: 'dataExport.title',
  intro: 'dataExport.intro',
  contents: 'dataExport.contents',
  others: 'dataExport.others',
  ask: 'dataExport.ask',
  askAgain: 'dataExport.askAgain',
  preparing: 'dataExport.preparing',
  preparingHelp: 'dataExport.preparingHelp',
  ready: 'dataExport.ready',
  download: 'dataExport.download',
  failed: 'dataExport.failed',
  expired: 'dataExport.expired',
  byAdmin: 'dataExport.byAdmin',
};

const PERSON_TEXTS: ExportTexts = {
  title: 'dataExport.ofPerson.title',
  intro: 'dataExport.ofPerson.intro',
  contents: 'dataExport.ofPerson.contents',
  others: 'dataExport.ofPerson.others',
  ask: 'dataExport.ofPerson.ask',
  askAgain: 'dataExport.ofPerson.askAgain',
  preparing: 'dataExport.ofPerson.preparing',
  preparingHelp: 'dataExport.ofPerson.preparingHelp',
  ready: 'dataExport.ofPerson.ready',
  download: 'dataExport.ofPerson.download',
  failed: 'dataExport.ofPerson.failed',
  expired: 'dataExport.ofPerson.expired',
  byAdmin: 'dataExport.ofPerson.byAdmin',
  byPerson: 'dataExport.ofPerson.byPerson',
};

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
 * For a customer's or a professional's own account (the session's transport says whose), or,
 * given `owner`, for an admin acting on that person's behalf (the person asked by other
 * means): the same, said of the person, and a ready copy's link is not renewed by itself
 * (each link an admin is given is audited) but on the admin's demand.
 */
export function DataExportSection({ owner }: { owner?: DataExportOwner } = {}) {
  const { t } = useTranslation();
  const loaded = useDataExport(owner);
  const request = useRequestDataExport();
  const texts = owner ? PERSON_TEXTS : OWN_TEXTS;
  const copy = latest(loaded.data?.export, request.data?.export);
  const preparing = copy?.state === DataExportState.PREPARING;
  const known = !loaded.isPending || request.data !== undefined;
  const again =
    copy?.state === DataExportState.READY ||
    copy?.state === DataExportState.FAILED ||
    copy?.state === DataExportState.EXPIRED;

  return (
    <FormSection title={t(texts.title)} description={t(texts.intro)}>
      <Text>{t(texts.contents)}</Text>
      <Text color="fg.muted">{t(texts.others)}</Text>
      {loaded.error && <RpcErrorAlert error={loaded.error} />}
      {/* Always there, so that "being prepared" and "ready" are read out as they come. */}
      <Box role="status">{copy && <ExportStatus copy={copy} texts={texts} />}</Box>
      {owner && copy?.state === DataExportState.READY && (
        <Stack gap="2" align="start">
          <Text color="fg.muted">{t('dataExport.ofPerson.linkHelp')}</Text>
          <Button
            variant="outline"
            minH="11"
            loading={loaded.isFetching}
            onClick={() => void loaded.refetch()}
          >
            {t('dataExport.ofPerson.freshLink')}
          </Button>
        </Stack>
      )}
      {request.error && <RpcErrorAlert error={request.error} />}
      {known && !preparing && (
        <Button
          colorPalette="brand"
          variant={copy?.state === DataExportState.READY ? 'outline' : 'solid'}
          alignSelf="start"
          minH="11"
          loading={request.isPending}
          onClick={() =>
            request.mutate(owner ? { accountId: owner.accountId, role: owner.role } : {})
          }
        >
          {t(again ? texts.askAgain : texts.ask)}
        </Button>
      )}
    </FormSection>
  );
}

/** Where one copy stands, in words, with its link once ready. */
function ExportStatus({ copy, texts }: { copy: DataExport; texts: ExportTexts }) {
  const { t, i18n } = useTranslation();
  const formatTime = useDateTimeFormat();
  const askedBy = copy.requestedByAdmin ? texts.byAdmin : texts.byPerson;
  const whoAsked = askedBy && <Text color="fg.muted">{t(askedBy)}</Text>;
  switch (copy.state) {
    case DataExportState.PREPARING:
      return (
        <Stack gap="1">
          <HStack gap="3">
            <Spinner size="sm" color="brand.solid" aria-hidden />
            <Text fontWeight="semibold">{t(texts.preparing)}</Text>
          </HStack>
          <Text color="fg.muted">{t(texts.preparingHelp)}</Text>
          {whoAsked}
        </Stack>
      );
    case DataExportState.READY:
      return (
        <Stack gap="2" align="start">
          <Text fontWeight="semibold">{t(texts.ready)}</Text>
          {whoAsked}
          <Link
            href={copy.downloadUrl}
            download
            color="brand.fg"
            fontWeight="semibold"
            textDecoration="underline"
            {...FINGER_TARGET}
          >
            <Download aria-hidden size={18} />
            {t(texts.download, {
              size: formatArchiveSize(i18n, Number(copy.sizeBytes)),
            })}
          </Link>
          <Text color="fg.muted">
            {t('dataExport.availableUntil', { time: formatTime(copy.expiresAt) })}
          </Text>
        </Stack>
      );
    case DataExportState.FAILED:
      return <Text fontWeight="semibold">{t(texts.failed)}</Text>;
    case DataExportState.EXPIRED:
      return <Text fontWeight="semibold">{t(texts.expired)}</Text>;
    default:
      return null;
  }
}
