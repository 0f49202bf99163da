import { useQuery } from '@connectrpc/connect-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/** The professionals the customer blocked, newest first (ListBlockedProfessionals). */
export const useBlockedProfessionals = (enabled = true) =>
  useQuery(MarketplaceService.method.listBlockedProfessionals, {}, { enabled });

/**
 * Blocks a professional from all of the customer's requests (BlockProfessional); the list
 * of blocked professionals and the conversations reload.
 */
export const useBlockProfessional = () =>
  useRefreshingMutation(
    MarketplaceService.method.blockProfessional,
    MarketplaceService.method.listBlockedProfessionals,
    MarketplaceService.method.listConversations,
  );

/** Lifts a block (UnblockProfessional); the same lists reload. */
export const useUnblockProfessional = () =>
  useRefreshingMutation(
    MarketplaceService.method.unblockProfessional,
    MarketplaceService.method.listBlockedProfessionals,
    MarketplaceService.method.listConversations,
  );
