import { AreaLayout } from '@/components/layout/area-layout';
import { useUnreadTotal } from '../api/list-conversations';
import { CONVERSATION_PATHS } from '../paths';

/** The customer's area, its Messages link showing how many messages are unread. */
export function CustomerAreaLayout() {
  const unread = useUnreadTotal();
  return <AreaLayout area="customer" badges={{ [CONVERSATION_PATHS.customerMessages]: unread }} />;
}
