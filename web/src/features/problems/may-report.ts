import {
  RepairRequestState,
  type RepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** Whether the customer may still report a problem on `request` at `now`. */
export function mayReportProblem(request: RepairRequest, now: Date = new Date()): boolean {
  const deadline = request.problemReportDeadline;
  return (
    request.state === RepairRequestState.COMPLETED &&
    request.openProblem === undefined &&
    deadline !== undefined &&
    Number(deadline.seconds) * 1000 > now.getTime()
  );
}
