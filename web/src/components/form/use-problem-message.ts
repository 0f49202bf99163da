import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { reasonMessageKey } from '@/lib/error-reasons';
import type { RpcProblem } from '@/lib/rpc-error';

/** The text a person reads for a failed call: the reason's translation, else the server's. */
export function useProblemMessage() {
  const { t } = useTranslation();
  return useCallback(
    (problem: RpcProblem) => {
      const key = reasonMessageKey(problem.reason);
      if (key) return t(key);
      return problem.message || t('errors.reasons.INTERNAL');
    },
    [t],
  );
}
