import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { MatchingService } from '@/gen/repairs/matching/v1/matching_pb';

/** Whom a request matched and how each notification went (ListRepairRequestMatches, admin). */
export function useRequestMatchesPage(repairRequestId: string, pageToken: string) {
  return useQuery(
    MatchingService.method.listRepairRequestMatches,
    { repairRequestId, pageToken, pageSize: 20 },
    { placeholderData: keepPreviousData },
  );
}
