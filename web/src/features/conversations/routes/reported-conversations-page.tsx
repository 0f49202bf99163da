import {
  Badge,
  Box,
  Button,
  Checkbox,
  Heading,
  HStack,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { PageTitle } from '@/components/page-title';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FactsList } from '@/components/ui/facts-list';
import { FormField } from '@/components/ui/form-field';
import { AppLink } from '@/components/ui/links';
import { TokenPager } from '@/components/ui/pager';
import { toaster } from '@/components/ui/toast';
import { useServiceNames } from '@/features/content';
import {
  MessageAuthor,
  ResolveConversationReportRequestSchema,
  type ConversationReport,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { bound, limitOf } from '@/lib/contract-limits';
import { readRpcError } from '@/lib/rpc-error';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import {
  useConversationReportsPage,
  useResolveConversationReport,
} from '../api/conversation-reports';
import { ConversationThread } from '../components/conversation-thread';
import { reportReasonKey } from '../report-reasons';

/** The contract's bound on a resolution note: ResolveConversationReportRequest's max_len. */
const NOTE_MAX = bound(
  limitOf(ResolveConversationReportRequestSchema, 'resolutionNote').maxLen,
  'resolution note',
);

/**
 * /admin/reported-conversations: the queue of reported conversations, oldest open report
 * first (closed ones too on demand): who reported it, why and in their words; the messages
 * (reading a reported conversation is audited by the server); and Resolve with a note.
 */
export function ReportedConversationsPage() {
  const { t } = useTranslation();
  const [includeResolved, setIncludeResolved] = useState(false);
  const pages = usePageTokens();
  const { data, isPending, error } = useConversationReportsPage(includeResolved, pages.token);
  const reports = data?.reports ?? [];
  return (
    <Stack gap="6" maxW="4xl">
      <PageTitle title={t('pages.adminReportedConversations')} />
      <Checkbox.Root
        checked={includeResolved}
        onCheckedChange={(details) => {
          setIncludeResolved(details.checked === true);
          pages.reset();
        }}
        colorPalette="brand"
      >
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>{t('reports.includeResolved')}</Checkbox.Label>
      </Checkbox.Root>
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {data && reports.length === 0 && <EmptyState title={t('reports.none')} />}
      {reports.length > 0 && (
        <Stack as="ul" gap="4" listStyleType="none" aria-label={t('reports.caption')}>
          {reports.map((report) => (
            <ReportCard key={report.id} report={report} />
          ))}
        </Stack>
      )}
      <TokenPager pages={pages} nextToken={data?.nextPageToken ?? ''} />
    </Stack>
  );
}

function ReportCard({ report }: { report: ConversationReport }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const problemMessage = useProblemMessage();
  const resolve = useResolveConversationReport();
  const [reading, setReading] = useState(false);
  const [resolving, setResolving] = useState(false);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const headingId = useId();
  const panelId = useId();
  const conversation = report.conversation;
  const serviceName = useServiceNames();
  const resolved = report.resolveTime !== undefined;
  const title = conversation
    ? t('conversations.rowTitle', {
        service: serviceName(conversation.serviceId, conversation.serviceName),
        name: conversation.professionalName,
      })
    : report.id;

  const sendResolution = () => {
    if (note.trim() === '') {
      setNoteError(t('reports.noteRequired'));
      return;
    }
    resolve.mutate(
      { reportId: report.id, resolutionNote: note.trim() },
      {
        onSuccess: () => {
          setResolving(false);
          toaster.create({ type: 'success', title: t('reports.resolved') });
        },
        onError: (failure) => setNoteError(problemMessage(readRpcError(failure))),
      },
    );
  };

  return (
    <Stack
      as="li"
      gap="3"
      borderWidth="1px"
      borderRadius="lg"
      bg="bg"
      p={{ base: '4', md: '5' }}
      aria-labelledby={headingId}
    >
      <HStack justify="space-between" gap="3" wrap="wrap">
        <Heading as="h2" id={headingId} size="md" color="brand.900">
          {title}
        </Heading>
        <Badge colorPalette={resolved ? 'gray' : 'red'} variant="solid">
          {resolved ? t('reports.stateResolved') : t('reports.stateOpen')}
        </Badge>
      </HStack>
      <FactsList
        facts={[
          [
            t('reports.reportedBy'),
            report.reportedBy === MessageAuthor.CUSTOMER
              ? t('reports.byCustomer')
              : t('reports.byProfessional', { name: conversation?.professionalName ?? '' }),
          ],
          [t('reports.reason'), t(reportReasonKey(report.reason))],
          [t('reports.details'), report.details || '—'],
          [t('reports.reportedAt'), formatTime(report.createTime)],
          ...(resolved
            ? ([
                [t('reports.resolvedAt'), formatTime(report.resolveTime)],
                [t('reports.note'), report.resolutionNote],
              ] as [string, string][])
            : []),
        ]}
      />
      <HStack gap="3" wrap="wrap">
        {conversation && (
          <Button
            variant="outline"
            colorPalette="brand"
            aria-expanded={reading}
            aria-controls={panelId}
            onClick={() => setReading((shown) => !shown)}
          >
            {reading ? t('reports.hideMessages') : t('reports.readMessages')}
          </Button>
        )}
        {!resolved && (
          <Button colorPalette="brand" onClick={() => setResolving(true)}>
            {t('reports.resolve')}
          </Button>
        )}
        {conversation && (
          <AppLink
            to={`/admin/view-request/${encodeURIComponent(conversation.repairRequestId)}`}
            color="brand.fg"
          >
            {t('reports.viewRequest')}
          </AppLink>
        )}
      </HStack>
      <Box id={panelId} hidden={!reading}>
        {reading && conversation && (
          <ConversationThread
            conversation={{
              repairRequestId: conversation.repairRequestId,
              professionalId: conversation.professionalId,
            }}
            reader="admin"
            title={t('reports.messagesTitle')}
            names={{
              customer: t('conversations.theCustomer'),
              professional: conversation.professionalName,
            }}
          />
        )}
      </Box>
      <ConfirmDialog
        open={resolving}
        title={t('reports.resolveQuestion')}
        confirmLabel={t('reports.resolve')}
        onCancel={() => {
          setResolving(false);
          setNoteError(undefined);
        }}
        onConfirm={sendResolution}
        loading={resolve.isPending}
      >
        <Stack gap="3">
          <Text>{title}</Text>
          <FormField label={t('reports.note')} error={noteError} required>
            <Textarea
              rows={3}
              maxLength={NOTE_MAX}
              value={note}
              onChange={(event) => setNote(event.target.value)}
            />
          </FormField>
        </Stack>
      </ConfirmDialog>
    </Stack>
  );
}
