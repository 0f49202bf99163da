import { skipToken, useQuery } from '@connectrpc/connect-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/**
 * The dashboard's four counters and the newest matching open requests, counted by the
 * server (MarketplaceService.GetProfessionalDashboard).
 */
export function useProfessionalDashboard(professionalId: string | null) {
  return useQuery(
    MarketplaceService.method.getProfessionalDashboard,
    professionalId ? { professionalId } : skipToken,
  );
}
