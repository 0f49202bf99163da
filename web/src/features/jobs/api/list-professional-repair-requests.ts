import { skipToken, useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import {
  MarketplaceService,
  type ProfessionalRepairRequestView,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';

export const PROFESSIONAL_PAGE_SIZE = 20;

/**
 * A page of the requests a professional quoted on, in one view, newest first, each with
 * their quote (MarketplaceService.ListProfessionalRepairRequests).
 */
export function useProfessionalRequestsPage(
  professionalId: string | null,
  view: ProfessionalRepairRequestView,
  pageToken: string,
) {
  return useQuery(
    MarketplaceService.method.listProfessionalRepairRequests,
    professionalId
      ? { professionalId, view, pageToken, pageSize: PROFESSIONAL_PAGE_SIZE }
      : skipToken,
    { placeholderData: keepPreviousData },
  );
}
