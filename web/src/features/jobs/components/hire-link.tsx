import { useTranslation } from 'react-i18next';
import { LinkButton } from '@/components/ui/links';
import type { Quote, RepairRequest } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { canHire } from '../hire-choice';
import { JOB_PATHS } from '../paths';

/** 'Hire' on a quote the customer may still choose (canHire). */
export function HireLink({ quote, request }: { quote: Quote; request?: RepairRequest }) {
  const { t } = useTranslation();
  if (!canHire(quote, request)) return null;
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
