// @vitest-environment node
// The prerender runs in Node, where emotion writes its styles into the markup.
import { describe, expect, it, vi } from 'vitest';
import fr from '@/locales/fr.json';
import { renderPage } from './render';

describe('renderPage', () => {
  it('renders a landing page with markers for the server texts and one card per icon', async () => {
    const page = await renderPage('/fr');
    expect(page.language).toBe('fr');
    expect(page.html).toMatch(/<h1[^>]*>\{\{banner_h1\}\}<\/h1>/);
    expect(page.html).toContain('{{how_1.heading}}');
    expect(page.html).toContain('<ul');
    expect(page.html).toContain('{{services}}');
    expect(page.html).not.toContain('{{service.name}}');
    // The styles go to the head; no image preload names a marker.
    expect(page.html).not.toContain('<style');
    expect(page.html).not.toContain('rel="preload"');
    expect(page.styles).toContain('data-emotion');
    expect(page.defaults?.banner_h1).toBe(fr.home.banner_h1);
    expect(page.defaults?.['how_1.heading']).toBe(fr.home.how_1.heading);
    expect(Object.keys(page.cards ?? {})).toEqual(
      expect.arrayContaining(['plumbing', 'applianceRepair', 'wrench', 'image']),
    );
    for (const card of Object.values(page.cards ?? {})) {
      expect(card).toMatch(
        /^<li[^>]*>.*\{\{service\.name\}\}.*\{\{service\.description\}\}.*<\/li>$/,
      );
    }
    expect(page.cards?.image).toContain('src="{{service.icon_url}}"');
    expect(page.cards?.plumbing).toContain('<svg');
    expect(page.categories?.['Plumbing Services']).toBe('plumbing');
    expect(page.defaultServices?.[0]).toEqual({ kind: 'plumbing', ...fr.services.items.plumbing });
  });

  it('renders a sign-in page as it is, in its language', async () => {
    const page = await renderPage('/fr/login-as-professional');
    expect(page.data).toBeNull();
    expect(page.title).toContain(fr.app.name);
    expect(page.html).toContain('type="password"');
    expect(page.html).not.toContain('{{');
    expect(page.cards).toBeUndefined();
  });

  it('leaves no timer behind, which would keep the build waiting for minutes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval'] });
    try {
      await renderPage('/');
      // What is due within a second (the cache's notifications) may run; nothing may be left.
      vi.advanceTimersByTime(1000);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
