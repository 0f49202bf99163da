import { create } from '@bufbuild/protobuf';
import { createRouterTransport } from '@connectrpc/connect';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  ContentService,
  GetHomePageResponseSchema,
  type GetHomePageRequest,
} from '@/gen/repairs/content/v1/content_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { renderApp } from '@/test/render-app';

/** A server whose home page has its own texts, except the banner's third line and the steps. */
function answeringServer(requests: GetHomePageRequest[] = []) {
  return createRouterTransport(({ service }) => {
    service(ContentService, {
      getHomePage: (request) => {
        requests.push(request);
        const french = request.language === Language.FR;
        return create(GetHomePageResponseSchema, {
          page: {
            bannerH1: french ? 'Titre du serveur' : 'Server headline',
            bannerH2: 'Server tagline',
            bannerLink: 'Server button',
            servicesHeading: 'Server services',
            section1Heading: 'Server figures',
            howHeading: 'Server guide',
          },
        });
      },
      listServices: () => ({
        services: [
          {
            id: 's1',
            name: { en: 'Locksmith', fr: 'Serrurier' },
            description: { en: 'Locks', fr: 'Serrures' },
          },
          {
            id: 's2',
            name: { en: 'Plumbing Services', fr: 'Plomberie' },
            description: { en: 'Pipes' },
          },
        ],
      }),
    });
  });
}

describe('home page', () => {
  it('shows the default texts, the eight services and the figures while the server answers UNIMPLEMENTED', async () => {
    const { queryClient } = renderApp('/');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Emergency repairs, handled fast' }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Request a repair' })).toHaveAttribute(
      'href',
      '/create-request',
    );

    const services = screen.getByRole('region', { name: 'Our services' });
    expect(within(services).getAllByRole('listitem')).toHaveLength(8);
    expect(within(services).getByRole('heading', { name: 'Plumbing Services' })).toBeVisible();
    expect(
      within(services).getByRole('heading', { name: 'Electrical Appliance Repair' }),
    ).toBeVisible();

    const figures = screen.getByRole('region', { name: 'Customers count on us' });
    for (const figure of ['300+', '3500', '98%'])
      expect(within(figures).getByText(figure)).toBeVisible();
    expect(within(figures).getByText('verified professionals')).toBeVisible();

    const guide = screen.getByRole('region', { name: 'How to get started' });
    expect(within(guide).getAllByRole('listitem')).toHaveLength(3);

    // Both calls failed (UNIMPLEMENTED, not retried) and the visitor sees no error.
    await waitFor(() => {
      const queries = queryClient.getQueryCache().findAll();
      expect(queries.map((query) => query.state.status)).toEqual(['error', 'error']);
    });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Emergency repairs, handled fast',
    );
    expect(document.documentElement.lang).toBe('en');
  });

  it("replaces the defaults with the server's texts, keeping defaults for the fields it leaves empty", async () => {
    const requests: GetHomePageRequest[] = [];
    renderApp('/', answeringServer(requests));

    expect(await screen.findByRole('heading', { level: 1, name: 'Server headline' })).toBeVisible();
    expect(screen.getByText('Server tagline')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Server button' })).toBeVisible();
    // banner_h3 and the guide's steps were empty in the reply: the catalogue's stay.
    expect(screen.getByText(/Post your repair request in minutes/)).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Compare quotes' })).toBeVisible();
    expect(requests[0]?.language).toBe(Language.EN);

    const services = await screen.findByRole('region', { name: 'Server services' });
    await waitFor(() => expect(within(services).getAllByRole('listitem')).toHaveLength(2));
    expect(within(services).getByRole('heading', { name: 'Locksmith' })).toBeVisible();
  });

  it('renders /fr in French and asks the server for the French texts', async () => {
    const requests: GetHomePageRequest[] = [];
    renderApp('/fr', answeringServer(requests));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Titre du serveur' }),
    ).toBeVisible();
    expect(requests[0]?.language).toBe(Language.FR);
    expect(document.documentElement.lang).toBe('fr');
    const services = screen.getByRole('region', { name: 'Server services' });
    expect(await within(services).findByRole('heading', { name: 'Serrurier' })).toBeVisible();
    // A service without a French name falls back to English.
    expect(within(services).getByRole('heading', { name: 'Plomberie' })).toBeVisible();
    expect(within(services).getByText('Pipes')).toBeVisible();
  });

  it('renders the French defaults at /fr while the server cannot answer', async () => {
    renderApp('/fr');
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Réparations d’urgence, réglées rapidement',
      }),
    ).toBeVisible();
    expect(screen.getByText('98 %')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Services de plomberie' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/fr/login');
  });
});
