/**
 * The page the service worker shows for a page opened while the network is down: English and
 * French side by side (the worker cannot know which one the person reads), with the words of
 * `deviceAlerts.offline` in the catalogues. Built once, when the app is built, into the worker.
 * No script: a link to the same address tries again.
 */
export interface OfflineWords {
  title: string;
  body: string;
  emergency: string;
  retry: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const section = (lang: 'en' | 'fr', words: OfflineWords, heading: 'h1' | 'h2') => `
    <section lang="${lang}">
      <${heading}>${escapeHtml(words.title)}</${heading}>
      <p>${escapeHtml(words.body)}</p>
      <p><strong>${escapeHtml(words.emergency)}</strong></p>
      <p><a href="">${escapeHtml(words.retry)}</a></p>
    </section>`;

export function offlinePage(words: { en: OfflineWords; fr: OfflineWords }): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="theme-color" content="#162a6b" />
    <title>${escapeHtml(words.en.title)} · ${escapeHtml(words.fr.title)}</title>
    <style>
      body { margin: 0; font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica,
        Arial, sans-serif; color: #1a202c; background: #fff; line-height: 1.5; }
      header { background: #162a6b; color: #fff; padding: 1rem 1.5rem; font-weight: 700; }
      main { max-width: 40rem; margin: 0 auto; padding: 1.5rem; }
      section + section { border-top: 1px solid #cbd5e0; margin-top: 1.5rem; }
      h1, h2 { font-size: 1.5rem; margin: 1rem 0 0.5rem; }
      a { color: #162a6b; font-weight: 600; }
      a:focus-visible { outline: 3px solid #c43608; outline-offset: 2px; }
    </style>
  </head>
  <body>
    <header>Repairs 24/7</header>
    <main>${section('en', words.en, 'h1')}${section('fr', words.fr, 'h2')}
    </main>
  </body>
</html>
`;
}
