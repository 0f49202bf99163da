import { Text } from '@chakra-ui/react';
import { Code } from '@connectrpc/connect';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { AuditOutcome, type AuditEvent } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * What came of an action that called an outside service (a payment step), when it did not
 * simply succeed: not settled (cut short, or still under way), or failed and why, the
 * server's reason said in the reader's language.
 */
export function AuditOutcomeNote({ event }: { event: AuditEvent }) {
  const { t } = useTranslation();
  const problemMessage = useProblemMessage();
  if (event.outcome === AuditOutcome.PENDING) {
    return (
      <Text color="orange.fg" fontWeight="medium">
        {t('audit.outcome.pending')}
      </Text>
    );
  }
  if (event.outcome !== AuditOutcome.FAILED) return null;
  // The server writes "REASON: message".
  const [reason = '', ...rest] = event.failure.split(': ');
  const why = problemMessage({
    code: Code.Unknown,
    reason,
    message: rest.join(': ') || event.failure,
    violations: [],
  });
  return (
    <Text color="red.fg" fontWeight="medium">
      {t('audit.outcome.failed', { why })}
    </Text>
  );
}
