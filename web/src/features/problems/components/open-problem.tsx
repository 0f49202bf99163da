import { Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '@/components/ui/form-alert';
import type { RepairRequest } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useDateFormat } from '@/lib/use-date-format';

/**
 * The problem reported on a finished job and still open, for its customer and its hired
 * professional: what was written and that the conversation is open again, support reading.
 */
export function OpenProblem({
  request,
  reader,
}: {
  request: RepairRequest;
  reader: 'customer' | 'professional';
}) {
  const { t } = useTranslation();
  const formatDate = useDateFormat('long');
  const problem = request.openProblem;
  if (!problem) return null;
  return (
    <FormAlert status="warning" title={t(`problems.open.${reader}`)}>
      <Text>{t('problems.reportedOn', { date: formatDate(problem.createTime) })}</Text>
      <Text whiteSpace="pre-wrap">“{problem.text}”</Text>
      <Text>{t('problems.conversationOpen')}</Text>
    </FormAlert>
  );
}
