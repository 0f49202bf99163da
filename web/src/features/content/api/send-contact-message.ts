import { useMutation } from '@connectrpc/connect-query';
import { ContentService } from '@/gen/repairs/content/v1/content_pb';

/** Sends the contact form through ContentService.SendContactMessage. */
export function useSendContactMessage() {
  return useMutation(ContentService.method.sendContactMessage);
}
