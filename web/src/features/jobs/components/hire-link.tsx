import { useTranslation } from 'react-i18next';
import { LinkButton } from '@/components/ui/links';
import {
  QuoteState,
  RepairRequestState,
  type Quote,
  type RepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { JOB_PATHS } from '../paths';

/**
 * 'Hire' on a quote the customer may still choose: sent and not withdrawn, on a request that
 * is open (or whose state is not known yet; the server refuses a hire on a closed one).
 */
export function HireLink({ quote, request }: { quote: Quote; request?: RepairRequest }) {
  const { t } = useTranslation();
  const open = !request || request.state === RepairRequestState.OPEN;
  if (quote.state !== QuoteState.SUBMITTED || !open) return null;
  return (
    <LinkButton
      to={JOB_PATHS.hire(quote.id)}
      colorPalette="accent"
      aria-label={t('jobs.hireName', { name: quote.professionalName })}
    >
      {t('jobs.hire')}
    </LinkButton>
  );
}
