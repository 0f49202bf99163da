import { Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { AppLink } from '@/components/ui/links';
import { useServiceNames } from '@/features/content';
import { RepairRequestState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useLiveQuotes } from '../api/watch-repair-request';
import { HireLink } from '../components/hire-link';
import { QuoteCard } from '../components/quote-card';
import { JOB_PATHS } from '../paths';

/**
 * /application-list/{id}: the quotes on one of the customer's requests, oldest first, each
 * with the professional's rating, the fee, the time and the surge flag, and View and Hire.
 * While the request is open new quotes appear without a reload (WatchRepairRequest).
 */
export function ApplicationListPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { request, quotes, isPending, error, state } = useLiveQuotes(id);
  const serviceName = useServiceNames();
  const hired = request?.hiredProfessionalName;
  const open = !request || request.state === RepairRequestState.OPEN;

  return (
    <Stack gap="6" maxW="3xl">
      <AppLink to={JOB_PATHS.customerRequest(id)} color="brand.fg">
        {t('jobs.backToRequest')}
      </AppLink>
      <PageTitle title={t('pages.applicationList')} />
      {request && (
        <Text color="fg.muted">
          {serviceName(request.serviceId, request.serviceName)} · {request.description}
        </Text>
      )}
      {hired && <FormAlert status="success" title={t('jobs.youHired', { name: hired })} />}
      {open && state === 'live' && <Text fontSize="sm">{t('jobs.liveQuotes')}</Text>}
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {quotes && (
        <>
          <Text role="status" fontWeight="medium">
            {t('jobs.quoteCount', { count: quotes.length })}
          </Text>
          {quotes.length === 0 ? (
            <EmptyState title={t('jobs.noQuotes')} />
          ) : (
            <Stack as="ul" gap="4" listStyleType="none">
              {quotes.map((quote) => (
                <li key={quote.id}>
                  <QuoteCard
                    quote={quote}
                    request={request}
                    actions={
                      <>
                        <AppLink
                          to={JOB_PATHS.quote(quote.id)}
                          color="brand.fg"
                          aria-label={t('jobs.viewQuoteOf', { name: quote.professionalName })}
                        >
                          {t('jobs.viewQuote')}
                        </AppLink>
                        <HireLink quote={quote} request={request} />
                      </>
                    }
                  />
                </li>
              ))}
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}
