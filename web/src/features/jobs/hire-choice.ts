import { publicProfileTarget, type ProfileOrigin } from '@/features/professionals';
import {
  QuoteState,
  RepairRequestState,
  type Quote,
  type RepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { JOB_PATHS } from './paths';

/**
 * Whether the customer may still choose the quote: sent and not withdrawn, on a request that
 * is open (or whose state is not known yet; the server refuses a hire on a closed one).
 */
export const canHire = (quote: Quote, request?: RepairRequest) =>
  quote.state === QuoteState.SUBMITTED && (!request || request.state === RepairRequestState.OPEN);

/**
 * A link to the quote's professional's public profile, which leads back to `back` (the page
 * showing the quote) and, while the quote can be chosen, to the quotes, where the hire is.
 */
export const quoteProfileTarget = (
  quote: Quote,
  request: RepairRequest | undefined,
  back: Pick<ProfileOrigin, 'back' | 'backTo'>,
) =>
  publicProfileTarget(quote.professionalId, {
    ...back,
    hireAt: canHire(quote, request) ? JOB_PATHS.quotes(quote.repairRequestId) : undefined,
  });
