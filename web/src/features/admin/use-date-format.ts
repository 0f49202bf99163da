import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { useCallback } from 'react';
import { LOCALES } from '@/lib/language';
import { useLanguage } from '@/lib/use-language';

/** Formats a contract timestamp as a date in the page's language ('' when unset). */
export function useDateFormat() {
  const language = useLanguage();
  return useCallback(
    (time: Timestamp | undefined) =>
      time
        ? new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'medium' }).format(
            timestampDate(time),
          )
        : '',
    [language],
  );
}
