import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';

/**
 * What was typed in the fields at `paths`, taken now, to type again over a newer version of
 * the record: after a save refused as stale, the form shows the stored version with the
 * person's own changes still in place (and still marked changed, so they are saved).
 */
export function keepEdits<T extends FieldValues>(form: UseFormReturn<T>, paths: Path<T>[]) {
  const typed = paths.map((path) => [path, form.getValues(path)] as const);
  return (latest: T) => {
    form.reset(latest);
    for (const [path, value] of typed) {
      form.setValue(path, value as PathValue<T, Path<T>>, { shouldDirty: true });
    }
  };
}
