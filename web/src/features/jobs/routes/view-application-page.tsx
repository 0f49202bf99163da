import { HStack, Heading, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FactsList } from '@/components/ui/facts-list';
import { AppLink } from '@/components/ui/links';
import { useServiceNames } from '@/features/content';
import type { Quote, RepairRequest } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useGetQuote } from '../api/get-quote';
import { HireLink } from '../components/hire-link';
import { quoteProfileTarget } from '../hire-choice';
import { QuoteStateBadge } from '../components/quote-state-badge';
import { JOB_PATHS } from '../paths';
import { useQuoteFacts } from '../use-quote-facts';

/** /view-application/{id}: one quote, the request it is for, and Hire while it can be chosen. */
export function ViewApplicationPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data, isPending, error } = useGetQuote(id);
  const quote = data?.quote;
  const request = data?.repairRequest;
  return (
    <Stack gap="6" maxW="3xl">
      {quote && (
        <AppLink to={JOB_PATHS.quotes(quote.repairRequestId)} color="brand.fg">
          {t('jobs.backToQuotes')}
        </AppLink>
      )}
      <PageTitle title={t('pages.viewApplication')} />
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {quote && <QuoteDetails quote={quote} request={request} />}
    </Stack>
  );
}

/** The quote's professional, the request's service and description, and the quote's figures. */
function QuoteDetails({ quote, request }: { quote: Quote; request?: RepairRequest }) {
  const { t } = useTranslation();
  const facts = useQuoteFacts(quote);
  const serviceName = useServiceNames();
  const profile = quoteProfileTarget(quote, request, {
    back: JOB_PATHS.quote(quote.id),
    backTo: 'quote',
  });
  return (
    <Stack gap="5">
      <Heading as="h2" size="lg">
        <AppLink {...profile} color="brand.fg">
          {quote.professionalName}
        </AppLink>
      </Heading>
      <FactsList
        facts={[
          [t('requests.service'), serviceName(request?.serviceId ?? '', quote.serviceName)],
          [t('requests.taskDescription'), quote.requestDescription],
          ...facts,
          [
            t('jobs.quoteState'),
            <QuoteStateBadge key="state" state={quote.state} reader="customer" />,
          ],
        ]}
      />
      <HStack gap="4" wrap="wrap">
        <HireLink quote={quote} request={request} />
        <AppLink {...profile} color="brand.fg">
          {t('jobs.viewProfile')}
        </AppLink>
      </HStack>
    </Stack>
  );
}
