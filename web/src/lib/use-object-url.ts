import { useCallback, useEffect, useState } from 'react';

/**
 * A `blob:` URL that shows a chosen file in this page (an image's preview) and `show` to
 * change the file; each URL is released once replaced and when the component goes.
 */
export function useObjectUrl(): [url: string | null, show: (file: Blob | null) => void] {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!url) return;
    return () => URL.revokeObjectURL(url);
  }, [url]);
  const show = useCallback(
    (file: Blob | null) => setUrl(file ? URL.createObjectURL(file) : null),
    [],
  );
  return [url, show];
}
