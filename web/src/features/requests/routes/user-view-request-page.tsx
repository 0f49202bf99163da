import { HStack, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { AppLink, LinkButton } from '@/components/ui/links';
import { RequestConversations } from '@/features/conversations';
import { ChooseAgain, isFinalRequestState, TripBanner, useLiveQuotes } from '@/features/jobs';
import { OpenProblem, ReportProblem } from '@/features/problems';
import { RepairRequestState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useRepairRequest } from '../api/get-repair-request';
import { JobCard } from '../components/job-card';
import { RequestFacts } from '../components/request-facts';
import { RequestMoreActions } from '../components/request-more-actions';
import { RequestPhotos } from '../components/request-photos';
import { RequestReach } from '../components/request-reach';
import { REQUEST_PATHS } from '../paths';
import { requestListOf } from '../request-states';

/** States in which the hired professional is shown first: at work, and the record after. */
const WITH_JOB_CARD: RepairRequestState[] = [
  RepairRequestState.HIRED,
  RepairRequestState.COMPLETED,
];

/**
 * /user-view-request/{id}: the customer's request, its photos of the damage (added and
 * removed while it is open), while open how many professionals were alerted and opened it,
 * its quotes, edit and delete, and the conversations with the professionals who wrote or
 * quoted; once hired, the hired professional's way to the door first (TripBanner: by when they
 * should be there, then the minutes left while on the way), then the hired professional
 * (JobCard). The request follows its stream (WatchRepairRequest) until it is final: its state,
 * its count of quotes, its reach, the professionals who quoted and the trip change on the page
 * as they do on the server. Its back link leads to the list the request is in.
 */
export function UserViewRequestPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data, isPending, error } = useRepairRequest(id);
  const loaded = data?.repairRequest;
  const live = useLiveQuotes(id, loaded !== undefined && !isFinalRequestState(loaded.state));
  const request = live.request ?? loaded;
  // How far it reached matters while professionals may still quote: while it is open.
  const open = request?.state === RepairRequestState.OPEN;
  const list = request && requestListOf(request.state);
  return (
    <Stack gap="6" maxW="3xl">
      {list && (
        <AppLink to={list.to} color="brand.fg" alignSelf="start">
          {t(list.words)}
        </AppLink>
      )}
      <PageTitle title={t('pages.userViewRequest')} />
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {request && (
        <>
          <TripBanner request={request} quotes={live.quotes} />
          {WITH_JOB_CARD.includes(request.state) && <JobCard request={request} />}
          <ChooseAgain request={request} quotes={live.quotes} />
          <OpenProblem request={request} reader="customer" />
          <ReportProblem request={request} />
          <RequestFacts request={request} />
          <RequestPhotos key={request.id} request={request} editable={open} />
          {open && <RequestReach reach={live.reach ?? data?.reach} />}
          <HStack gap="4" wrap="wrap">
            <LinkButton to={REQUEST_PATHS.applications(request.id)} colorPalette="brand">
              {t('requests.viewApplications')}
            </LinkButton>
            {request.state === RepairRequestState.OPEN && (
              <>
                <LinkButton to={REQUEST_PATHS.edit(request.id)} variant="outline">
                  {t('requests.edit')}
                </LinkButton>
                <RequestMoreActions request={request} />
              </>
            )}
          </HStack>
          <RequestConversations
            request={request}
            quotes={live.isPending ? undefined : (live.quotes ?? [])}
          />
        </>
      )}
    </Stack>
  );
}
