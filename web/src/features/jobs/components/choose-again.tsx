import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '@/components/ui/form-alert';
import {
  type Quote,
  QuoteState,
  type RepairRequest,
  RepairRequestState,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { HireLink } from './hire-link';
import { QuoteCard } from './quote-card';

/**
 * On the customer's request after a hire was given back: who could not come, and the quotes
 * that are live again, each with Hire, so the next professional is chosen from this page
 * without posting again. Nothing while the request is not open or no hire was released.
 */
export function ChooseAgain({ request, quotes }: { request: RepairRequest; quotes?: Quote[] }) {
  const { t } = useTranslation();
  if (request.state !== RepairRequestState.OPEN || !quotes) return null;
  const released = quotes.filter((quote) => quote.state === QuoteState.RELEASED).at(-1);
  if (!released) return null;
  const live = quotes.filter((quote) => quote.state === QuoteState.SUBMITTED);
  return (
    <Stack as="section" gap="4" aria-label={t('jobs.chooseAgain.section')}>
      <FormAlert
        status="warning"
        title={t('jobs.chooseAgain.title', { name: released.professionalName })}
      >
        {live.length > 0 ? t('jobs.chooseAgain.pick') : t('jobs.chooseAgain.none')}
      </FormAlert>
      {live.length > 0 && (
        <Stack as="ul" gap="4" listStyleType="none" aria-label={t('jobs.chooseAgain.list')}>
          {live.map((quote) => (
            <li key={quote.id}>
              <QuoteCard
                quote={quote}
                request={request}
                actions={<HireLink quote={quote} request={request} />}
              />
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
