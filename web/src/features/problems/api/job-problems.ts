import { createClient } from '@connectrpc/connect';
import { useQuery, useTransport } from '@connectrpc/connect-query';
import { useMemo } from 'react';
import { photoUpload, type UploadPhoto } from '@/components/photos/photo-uploads';
import type { JobProblemState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/** Problems shown at a time in the admins' queue. */
const PROBLEMS_PAGE_SIZE = 20;

/** Reports a problem on a completed job (ReportJobProblem); the request and queue reload. */
export const useReportJobProblem = () =>
  useRefreshingMutation(
    MarketplaceService.method.reportJobProblem,
    MarketplaceService.method.getRepairRequest,
    MarketplaceService.method.listJobProblems,
  );

/** Sends a photo for the customer's next report on a request (AddJobProblemPhoto). */
export function useProblemPhotoUpload(repairRequestId: string) {
  const transport = useTransport();
  return useMemo((): UploadPhoto => {
    const client = createClient(MarketplaceService, transport);
    return photoUpload((content, options) =>
      client.addJobProblemPhoto({ repairRequestId, content }, options),
    );
  }, [transport, repairRequestId]);
}

/** A page of the problems the caller may see, open first (ListJobProblems). */
export const useJobProblemsPage = (state: JobProblemState, pageToken: string) =>
  useQuery(MarketplaceService.method.listJobProblems, {
    state,
    pageToken,
    pageSize: PROBLEMS_PAGE_SIZE,
  });

/** One problem with the job's history (GetJobProblem). */
export const useJobProblem = (id: string) =>
  useQuery(MarketplaceService.method.getJobProblem, { id });

/** Resolves a problem (ResolveJobProblem); the problem, the queue and the request reload. */
export const useResolveJobProblem = () =>
  useRefreshingMutation(
    MarketplaceService.method.resolveJobProblem,
    MarketplaceService.method.getJobProblem,
    MarketplaceService.method.listJobProblems,
    MarketplaceService.method.getRepairRequest,
  );
