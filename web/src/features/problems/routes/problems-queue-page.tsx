import { Badge, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { AppLink } from '@/components/ui/links';
import { TokenPager } from '@/components/ui/pager';
import { RadioGroupField } from '@/components/ui/radio-group-field';
import { JobProblemState, type JobProblem } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useJobProblemsPage } from '../api/job-problems';
import { PROBLEM_PATHS } from '../paths';
import { stateWords } from '../problem-words';

const FILTERS = [JobProblemState.OPEN, JobProblemState.RESOLVED, JobProblemState.UNSPECIFIED];

/**
 * /admin/problems: the problems customers reported after their jobs, open ones oldest first
 * (then resolved ones newest first), filtered by state, each leading to its page.
 */
export function ProblemsQueuePage() {
  const { t } = useTranslation();
  const [state, setState] = useState<JobProblemState>(JobProblemState.OPEN);
  const pages = usePageTokens();
  const { data, isPending, error } = useJobProblemsPage(state, pages.token);
  const problems = data?.problems ?? [];
  return (
    <Stack gap="6" maxW="4xl">
      <PageTitle title={t('pages.adminProblems')} />
      <RadioGroupField
        legend={t('problems.filter')}
        options={FILTERS.map((value) => ({ value: String(value), label: t(stateWords(value)) }))}
        value={String(state)}
        onChange={(value) => {
          setState(Number(value) as JobProblemState);
          pages.reset();
        }}
        columns={{ base: 1, md: 3 }}
      />
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {data && problems.length === 0 && <EmptyState title={t('problems.none')} />}
      {problems.length > 0 && (
        <Stack as="ul" gap="4" listStyleType="none" aria-label={t('problems.caption')}>
          {problems.map((problem) => (
            <ProblemRow key={problem.id} problem={problem} />
          ))}
        </Stack>
      )}
      <TokenPager pages={pages} nextToken={data?.nextPageToken ?? ''} />
    </Stack>
  );
}

function ProblemRow({ problem }: { problem: JobProblem }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const headingId = useId();
  const open = problem.state === JobProblemState.OPEN;
  return (
    <Stack
      as="li"
      gap="2"
      borderWidth="1px"
      borderRadius="lg"
      bg="bg"
      p={{ base: '4', md: '5' }}
      aria-labelledby={headingId}
    >
      <HStack justify="space-between" gap="3" wrap="wrap">
        <Heading as="h2" id={headingId} size="md" color="brand.900">
          <AppLink to={PROBLEM_PATHS.admin(problem.id)} color="brand.fg">
            {t('problems.rowTitle', {
              service: problem.serviceName,
              customer: problem.customerName,
              professional: problem.professionalName,
            })}
          </AppLink>
        </Heading>
        <Badge colorPalette={open ? 'red' : 'gray'} variant="solid">
          {t(stateWords(problem.state))}
        </Badge>
      </HStack>
      <Text color="fg.muted">
        {t('problems.reportedAt', { time: formatTime(problem.createTime) })}
      </Text>
      <Text lineClamp={3}>{problem.text}</Text>
    </Stack>
  );
}
