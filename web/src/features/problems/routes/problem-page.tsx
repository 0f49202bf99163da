import { Box, Button, Heading, HStack, Image, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { RecordPage } from '@/components/record-page';
import { FactsList } from '@/components/ui/facts-list';
import { CountedTextareaField } from '@/components/ui/counted-textarea-field';
import { FormAlert } from '@/components/ui/form-alert';
import { AppLink } from '@/components/ui/links';
import { RadioGroupField } from '@/components/ui/radio-group-field';
import { toaster } from '@/components/ui/toast';
import { ConversationThread } from '@/features/conversations';
import {
  JobProblemOutcome,
  JobProblemState,
  ResolveJobProblemRequestSchema,
  type JobEvent,
  type JobProblem,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { bound, limitOf } from '@/lib/contract-limits';
import { readRpcError } from '@/lib/rpc-error';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { formatMoney } from '@/lib/money';
import { useLanguage } from '@/lib/use-language';
import { useJobProblem, useResolveJobProblem } from '../api/job-problems';
import { PROBLEM_PATHS } from '../paths';
import { eventWords, outcomeWords, stateWords } from '../problem-words';

/** The contract's bound on the note: ResolveJobProblemRequest.note's max_len. */
const NOTE_MAX = bound(limitOf(ResolveJobProblemRequestSchema, 'note').maxLen, 'problem note');

const OUTCOMES = [JobProblemOutcome.NOTE, JobProblemOutcome.REFUND, JobProblemOutcome.NOTHING];

/**
 * /admin/problems/{id}: a problem reported after a job: what the customer wrote and their
 * photos, the job's history in time order, its conversation (which admins write in while the
 * problem is open, as Support), and the resolve form with its three outcomes. A refund is
 * made first from the order history (the existing refund action), then resolved as REFUND.
 */
export function ProblemPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data, isPending, error } = useJobProblem(id);
  const problem = data?.problem;
  return (
    <RecordPage
      back={{ to: PROBLEM_PATHS.adminQueue, label: t('problems.backToQueue') }}
      title={t('pages.adminProblem')}
      isPending={isPending}
      error={error}
    >
      {problem && (
        <>
          <ProblemFacts problem={problem} />
          <History events={data.history} />
          <ConversationThread
            conversation={{
              repairRequestId: problem.repairRequestId,
              professionalId: problem.professionalId,
            }}
            reader="admin"
            title={t('problems.conversationTitle')}
            names={{ customer: problem.customerName, professional: problem.professionalName }}
          />
          {problem.state === JobProblemState.OPEN && <ResolveForm problem={problem} />}
        </>
      )}
    </RecordPage>
  );
}

function ProblemFacts({ problem }: { problem: JobProblem }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const resolved = problem.state === JobProblemState.RESOLVED;
  return (
    <Stack gap="3">
      <FactsList
        facts={[
          [t('problems.state'), t(stateWords(problem.state))],
          [t('problems.service'), problem.serviceName],
          [t('problems.customer'), problem.customerName],
          [t('problems.professional'), problem.professionalName],
          [
            t('problems.reportedOn', { date: '' }).replace(/[:\s]+$/u, ''),
            formatTime(problem.createTime),
          ],
          [t('problems.textLabel'), problem.text],
          ...(resolved
            ? ([
                [t('problems.outcome'), t(outcomeWords(problem.outcome))],
                [t('problems.note'), problem.resolutionNote],
              ] as [string, string][])
            : []),
        ]}
      />
      {problem.photos.length > 0 && (
        <HStack
          as="ul"
          gap="3"
          wrap="wrap"
          listStyleType="none"
          aria-label={t('problems.photosLabel')}
        >
          {problem.photos.map((photo, index) => (
            <Box as="li" key={photo.id}>
              <a href={photo.url} target="_blank" rel="noreferrer">
                <Image
                  src={photo.thumbnailUrl}
                  alt={t('problems.photoAlt', { number: index + 1 })}
                  maxH="32"
                  borderRadius="md"
                />
              </a>
            </Box>
          ))}
        </HStack>
      )}
      <AppLink
        to={`/admin/view-request/${encodeURIComponent(problem.repairRequestId)}`}
        color="brand.fg"
      >
        {t('problems.viewRequest')}
      </AppLink>
    </Stack>
  );
}

function History({ events }: { events: JobEvent[] }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const language = useLanguage();
  return (
    <Stack as="section" gap="2" aria-labelledby="problem-history">
      <Heading as="h2" id="problem-history" size="md" color="brand.900">
        {t('problems.history')}
      </Heading>
      {events.length === 0 ? (
        <Text color="fg.muted">{t('problems.noHistory')}</Text>
      ) : (
        <Stack as="ol" gap="1" listStyleType="none">
          {events.map((event, index) => (
            <Text as="li" key={index}>
              <Text as="span" color="fg.muted">
                {formatTime(event.time)}
              </Text>{' '}
              {t(eventWords(event.kind), {
                detail: event.detail,
                amount: formatMoney(event.amountCents, 'CAD', language),
                count: event.count,
              })}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function ResolveForm({ problem }: { problem: JobProblem }) {
  const { t } = useTranslation();
  const problemMessage = useProblemMessage();
  const resolve = useResolveJobProblem();
  const [outcome, setOutcome] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ outcome?: string; note?: string }>({});
  const [refusal, setRefusal] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      outcome: outcome === '' ? t('problems.outcomeRequired') : undefined,
      note: note.trim() === '' ? t('problems.noteRequired') : undefined,
    };
    setErrors(found);
    if (found.outcome || found.note) return;
    resolve.mutate(
      { id: problem.id, outcome: Number(outcome) as JobProblemOutcome, note: note.trim() },
      {
        onSuccess: () => toaster.create({ type: 'success', title: t('problems.resolved') }),
        onError: (failure) => setRefusal(problemMessage(readRpcError(failure))),
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} aria-labelledby="resolve-heading">
      <Stack gap="4" borderWidth="1px" borderRadius="lg" p={{ base: '4', md: '5' }}>
        <Heading as="h2" id="resolve-heading" size="md" color="brand.900">
          {t('problems.resolveTitle')}
        </Heading>
        {refusal && <FormAlert status="error" title={refusal} />}
        <RadioGroupField
          legend={t('problems.outcome')}
          options={OUTCOMES.map((value) => ({
            value: String(value),
            label: t(outcomeWords(value)),
          }))}
          value={outcome}
          onChange={setOutcome}
          error={errors.outcome}
          required
          columns={{ base: 1, md: 3 }}
        />
        {outcome === String(JobProblemOutcome.REFUND) && (
          <FormAlert status="info" title={t('problems.refundFirst')}>
            <AppLink to="/admin/order-history" color="brand.fg">
              {t('problems.openRefund')}
            </AppLink>
          </FormAlert>
        )}
        <CountedTextareaField
          label={t('problems.note')}
          error={errors.note}
          required
          count={note.length}
          limit={NOTE_MAX}
          rows={4}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
        <Button
          type="submit"
          alignSelf="start"
          colorPalette="brand"
          minH="11"
          loading={resolve.isPending}
        >
          {t('problems.resolve')}
        </Button>
      </Stack>
    </form>
  );
}
