import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';

export const REVIEWS_PAGE_SIZE = 10;

/** A page of a professional's reviews, newest first, with their average (ListProfessionalReviews). */
export function useProfessionalReviewsPage(professionalId: string, pageToken: string) {
  return useQuery(
    MarketplaceService.method.listProfessionalReviews,
    { professionalId, pageToken, pageSize: REVIEWS_PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
}
