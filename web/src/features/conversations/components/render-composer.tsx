import type { Composer as ComposerComponent } from './composer';
import { renderInApp } from '@/test/render-app';
import { REQUEST_ID, stubServer } from '@/test/stub-server';

/**
 * Tests' composer on a request's conversation, sending to a stub server. The component is
 * passed in, so a test may import it after changing the descriptors it reads.
 */
export function renderComposer(Composer: typeof ComposerComponent, language: 'en' | 'fr') {
  const server = stubServer(
    {},
    {},
    { marketplace: { sendMessage: () => ({}), addMessagePhoto: () => ({}) } },
  );
  renderInApp(
    <Composer
      conversation={{ repairRequestId: REQUEST_ID, professionalId: '' }}
      onSent={() => {}}
    />,
    server.transport,
    language,
  );
  return server;
}
