import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { useCallback } from 'react';
import { LOCALES } from '@/lib/language';
import { useLanguage } from '@/lib/use-language';

/**
 * Formats a contract timestamp as a date in the page's language ('' when unset): 'medium'
 * in tables (Nov 23, 2026), 'long' in sentences (23 novembre 2026).
 */
export function useDateFormat(dateStyle: 'medium' | 'long' = 'medium') {
  const language = useLanguage();
  return useCallback(
    (time: Timestamp | undefined) =>
      time
        ? new Intl.DateTimeFormat(LOCALES[language], { dateStyle }).format(timestampDate(time))
        : '',
    [language, dateStyle],
  );
}
