import { skipToken, useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { MatchingService } from '@/gen/repairs/matching/v1/matching_pb';

export const OPEN_REQUESTS_PAGE_SIZE = 20;

/**
 * A page of the open requests matching the professional, nearest first, with their
 * approximate location (MatchingService.ListOpenRequests).
 */
export function useOpenRequestsPage(professionalId: string | null, pageToken: string) {
  return useQuery(
    MatchingService.method.listOpenRequests,
    professionalId ? { professionalId, pageToken, pageSize: OPEN_REQUESTS_PAGE_SIZE } : skipToken,
    { placeholderData: keepPreviousData },
  );
}
