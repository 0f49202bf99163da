import { useCallback, useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { reasonMessageKey } from '@/lib/error-reasons';
import { readRpcError, type FieldProblem, type RpcProblem } from '@/lib/rpc-error';
import type { TranslationKey } from '@/lib/translation-key';
import { useProblemMessage } from './use-problem-message';

/** Where a server field violation shows: a form field, with its own message when refused. */
export type ServerField<T extends FieldValues> =
  Path<T> | { field: Path<T>; messageKey: TranslationKey };

export interface ServerErrorOptions<T extends FieldValues> {
  /** Proto field path (`profile.radius_km`) -> form field. */
  fields: Partial<Record<string, ServerField<T>>>;
  /**
   * Reasons without a field violation that belong next to a field (EMAIL_TAKEN -> email),
   * with the field's own message when the reason's general one would not fit.
   */
  reasonFields?: Partial<Record<string, ServerField<T>>>;
}

const fieldOf = <T extends FieldValues>(target: ServerField<T>) =>
  typeof target === 'string'
    ? { name: target, ownKey: null }
    : { name: target.field, ownKey: target.messageKey };

/**
 * Shows a failed call in a react-hook-form form: each field violation next to its field (the
 * first one focused), everything else as one message above the form (`formError`).
 * A violation's text is, in order: the reason's translation when the reason is more precise
 * than INVALID_ARGUMENT (FILE_TOO_LARGE, PHONE_CODE_WRONG, ...), the form's own message for
 * that field, or the server's description. `reportFor` takes the fields of one call (a row of
 * a repeated group).
 */
export function useServerErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  { fields, reasonFields }: ServerErrorOptions<T>,
) {
  const { t } = useTranslation();
  const problemMessage = useProblemMessage();
  const [formError, setFormError] = useState<string | null>(null);

  const reportFor = useCallback(
    (error: unknown, fieldsOfThisCall: ServerErrorOptions<T>['fields']): RpcProblem => {
      const problem = readRpcError(error);
      const reasonKey =
        problem.reason === 'INVALID_ARGUMENT' ? null : reasonMessageKey(problem.reason);
      const placed: { name: Path<T>; message: string }[] = [];
      const unplaced: FieldProblem[] = [];
      for (const violation of problem.violations) {
        const target = fieldsOfThisCall[violation.field];
        if (!target) {
          unplaced.push(violation);
          continue;
        }
        const { name, ownKey } = fieldOf(target);
        const key = reasonKey ?? ownKey;
        placed.push({ name, message: key ? t(key) : violation.description });
      }
      const reasonField = reasonFields?.[problem.reason];
      if (reasonField && problem.violations.length === 0) {
        const { name, ownKey } = fieldOf(reasonField);
        placed.push({ name, message: ownKey ? t(ownKey) : problemMessage(problem) });
      }
      placed.forEach(({ name, message }, index) =>
        setError(name, { type: 'server', message }, { shouldFocus: index === 0 }),
      );
      if (placed.length > 0 && unplaced.length === 0) {
        setFormError(null);
      } else {
        const details = unplaced.map((violation) => violation.description).join('; ');
        setFormError(details ? `${problemMessage(problem)} ${details}` : problemMessage(problem));
      }
      return problem;
    },
    [reasonFields, setError, t, problemMessage],
  );

  const report = useCallback((error: unknown) => reportFor(error, fields), [reportFor, fields]);
  const clear = useCallback(() => setFormError(null), []);
  return { formError, report, reportFor, clear };
}
