import { Card, HStack, Heading } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { FactsList } from '@/components/ui/facts-list';
import { AppLink } from '@/components/ui/links';
import type { Quote, RepairRequest } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { JOB_PATHS } from '../paths';
import { useQuoteFacts } from '../use-quote-facts';
import { quoteProfileTarget } from '../hire-choice';
import { QuoteStateBadge } from './quote-state-badge';

interface QuoteCardProps {
  quote: Quote;
  /** The request quoted on, once known (whether the quote can still be chosen). */
  request?: RepairRequest;
  /**
   * The card's title; by default the professional's name, linked to their public profile
   * (which leads back to the quotes, where the hire happens).
   */
  title?: ReactNode;
  /** The card's buttons and links (view, hire, withdraw). */
  actions?: ReactNode;
}

/**
 * One quote as a card: the professional (a link to their public profile), their rating, the
 * fee, the estimated time, the surge flag and the state, with the actions the screen offers.
 */
export function QuoteCard({ quote, request, title, actions }: QuoteCardProps) {
  const facts = useQuoteFacts(quote);
  return (
    <Card.Root as="article" variant="outline" bg="bg">
      <Card.Header pb="0">
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Heading as="h2" size="md">
            {title ?? (
              <AppLink
                {...quoteProfileTarget(quote, request, {
                  back: JOB_PATHS.quotes(quote.repairRequestId),
                  backTo: 'quotes',
                })}
                color="brand.fg"
              >
                {quote.professionalName}
              </AppLink>
            )}
          </Heading>
          <QuoteStateBadge state={quote.state} reader="customer" />
        </HStack>
      </Card.Header>
      <Card.Body>
        <FactsList facts={facts} />
      </Card.Body>
      {actions && (
        <Card.Footer>
          <HStack gap="3" wrap="wrap">
            {actions}
          </HStack>
        </Card.Footer>
      )}
    </Card.Root>
  );
}
