import { Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { AppLink } from '@/components/ui/links';
import { useServiceNames } from '@/features/content';
import { QuoteState, RepairRequestState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useLiveQuotes } from '../api/watch-repair-request';
import { HireLink } from '../components/hire-link';
import { QuoteCard } from '../components/quote-card';
import { QuoteComparison } from '../components/quote-comparison';
import { QuoteSort } from '../components/quote-sort';
import { JOB_PATHS } from '../paths';
import { defaultQuoteOrder, sortQuotes, type QuoteOrder } from '../quote-order';

/** The quotes still in play: waiting for the customer's choice, or the one hired. */
const LIVE_STATES: QuoteState[] = [QuoteState.SUBMITTED, QuoteState.HIRED];

/**
 * /application-list/{id}: the quotes on one of the customer's requests, each with the
 * professional's rating, the fee, how soon they can be there, the time and the surge flag, and
 * View and Hire; sorted as the customer chooses (the soonest arrival first when any
 * professional said one, else the newest), with the live quotes side by side when there are
 * several. While the request is open new quotes appear without a reload (WatchRepairRequest).
 */
export function ApplicationListPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { request, quotes, isPending, error, state } = useLiveQuotes(id);
  const serviceName = useServiceNames();
  const hired = request?.hiredProfessionalName;
  const open = !request || request.state === RepairRequestState.OPEN;
  const [chosenOrder, setOrder] = useState<QuoteOrder | null>(null);
  const order = chosenOrder ?? defaultQuoteOrder(quotes ?? []);
  const sorted = quotes && sortQuotes(quotes, order);
  const live = sorted?.filter((quote) => LIVE_STATES.includes(quote.state)) ?? [];

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
      {sorted && (
        <>
          <Text role="status" fontWeight="medium">
            {t('jobs.quoteCount', { count: sorted.length })}
          </Text>
          {sorted.length > 1 && <QuoteSort value={order} onChange={setOrder} />}
          {live.length > 1 && <QuoteComparison quotes={live} />}
          {sorted.length === 0 ? (
            <EmptyState title={t('jobs.noQuotes')} />
          ) : (
            <Stack as="ul" gap="4" listStyleType="none">
              {sorted.map((quote) => (
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
