import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { Code, createRouterTransport } from '@connectrpc/connect';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  ContentService,
  HomePageSchema,
  ProfessionalPageSchema,
  type UpdateHomePageRequest,
  type UpdateProfessionalPageRequest,
} from '@/gen/repairs/content/v1/content_pb';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { renderApp } from '@/test/render-app';
import { rpcError, signIn } from '@/test/stub-server';

/** A server holding the French home page, whose etag changes with each save. */
function homeServer() {
  let version = 1;
  let page = create(HomePageSchema, {
    bannerH1: 'Réparations d’urgence',
    bannerH2: 'Des pros de confiance',
    bannerLink: 'Demander',
    how1: { heading: 'Publiez', description: 'Dites-nous tout' },
  });
  const updates: UpdateHomePageRequest[] = [];
  let refuseNext = false;
  const transport = createRouterTransport(({ service }) => {
    service(ContentService, {
      getHomePage: () => ({ page, etag: `v${version}` }),
      updateHomePage: (request) => {
        updates.push(request);
        if (refuseNext || request.etag !== `v${version}`) {
          refuseNext = false;
          throw rpcError(Code.FailedPrecondition, 'ETAG_MISMATCH');
        }
        page = create(HomePageSchema, { ...page, ...request.page, how1: request.page?.how1 });
        version += 1;
        return {
          page,
          etag: `v${version}`,
          updateTime: timestampFromMs(Date.UTC(2026, 10, 23, 10, 0)),
        };
      },
      listServices: () => ({ services: [] }),
    });
  });
  /** Someone else saves the page meanwhile. */
  const changeElsewhere = () => {
    page = create(HomePageSchema, { ...page, bannerH2: 'Changé par un autre' });
    version += 1;
  };
  return { transport, updates, changeElsewhere, refuseOnce: () => (refuseNext = true) };
}

const preview = (sectionTitle: string) =>
  within(
    screen
      .getByRole('region', { name: sectionTitle })
      .querySelector('[data-testid="section-preview"]') as HTMLElement,
  );

describe('admin: page editors', () => {
  it('edits the French home page with a live preview in French and saves only what changed', async () => {
    signIn('admin', 'a1');
    const { transport, updates } = homeServer();
    renderApp('/admin/frhome', transport);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Home page (French)' }),
    ).toBeVisible();
    const title = await screen.findByRole('textbox', { name: 'Banner title' });
    expect(title).toHaveValue('Réparations d’urgence');
    expect(preview('Banner').getByText('Réparations d’urgence')).toBeInTheDocument();
    // The preview speaks the page's language: the satisfaction figures are in French.
    expect(
      preview('Satisfaction section').getByText('professionnels vérifiés'),
    ).toBeInTheDocument();

    const user = userEvent.setup();
    await user.clear(title);
    await user.type(title, 'Urgence plomberie');
    expect(preview('Banner').getByText('Urgence plomberie')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Step 1, heading' }), ' vite');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText(/The page is saved/)).toBeVisible();
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({
      language: Language.FR,
      etag: 'v1',
      updateMask: { paths: ['banner_h1', 'how_1.heading'] },
      page: { bannerH1: 'Urgence plomberie', how1: { heading: 'Publiez vite' } },
    });
    expect(await screen.findByText(/Last changed/)).toBeVisible();
  });

  it('refuses a stale save in the page and reloads the latest version keeping what was typed', async () => {
    signIn('admin', 'a1');
    const server = homeServer();
    renderApp('/admin/frhome', server.transport);
    const title = await screen.findByRole('textbox', { name: 'Banner title' });
    server.changeElsewhere();

    const user = userEvent.setup();
    await user.clear(title);
    await user.type(title, 'Mon titre');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Someone else saved this page after you opened it.');
    await user.click(within(alert).getByRole('button', { name: 'Load the latest version' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.getByRole('textbox', { name: 'Line above the title' })).toHaveValue(
      'Changé par un autre',
    );
    expect(title).toHaveValue('Mon titre');

    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(/The page is saved/)).toBeVisible();
    expect(server.updates.at(-1)).toMatchObject({
      etag: 'v2',
      updateMask: { paths: ['banner_h1'] },
    });
  });

  it('says what is wrong beside a field that is too long, without calling the server', async () => {
    signIn('admin', 'a1');
    const { transport, updates } = homeServer();
    renderApp('/admin/home', transport);
    const link = await screen.findByRole('textbox', { name: 'Banner button' });
    const user = userEvent.setup();
    await user.click(link);
    await user.paste('x'.repeat(1001));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('At most 1,000 characters.')).toBeVisible();
    expect(link).toHaveAttribute('aria-invalid', 'true');
    expect(updates).toEqual([]);
  });

  it('edits the English professional page, every field of it', async () => {
    signIn('admin', 'a1');
    const updates: UpdateProfessionalPageRequest[] = [];
    const transport = createRouterTransport(({ service }) => {
      service(ContentService, {
        getProfessionalPage: ({ language }) => ({
          page: create(ProfessionalPageSchema, { bannerH1: `Grow (${language})` }),
          etag: 'p1',
        }),
        updateProfessionalPage: (request) => {
          updates.push(request);
          return { page: request.page, etag: 'p2' };
        },
        listServices: () => ({ services: [] }),
      });
      service(BillingService, {
        getMembershipPrice: () => ({ monthlyPrice: { amountCents: 2999n, currency: 'CAD' } }),
      });
    });
    renderApp('/admin/phome', transport);
    expect(await screen.findByRole('textbox', { name: 'Banner title' })).toHaveValue(
      `Grow (${Language.EN})`,
    );
    for (const name of [
      'Sentence under the title',
      'Banner button',
      'Heading under the banner',
      'Button under the banner',
      'Buy button',
    ]) {
      expect(screen.getByRole('textbox', { name })).toBeVisible();
    }
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Heading under the banner' }), 'Members');
    expect(preview('Banner').getByText('Members')).toBeInTheDocument();
    expect(await preview('Membership section').findByText('$29.99 per month')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0]).toMatchObject({
      language: Language.EN,
      etag: 'p1',
      updateMask: { paths: ['banner_bottom_heading'] },
    });
  });

  it('shows the page and language of the address when going from one editor to another', async () => {
    signIn('admin', 'a1');
    const title = (language: Language) => (language === Language.FR ? 'Réparer' : 'Repair');
    const transport = createRouterTransport(({ service }) => {
      service(ContentService, {
        getHomePage: ({ language }) => ({
          page: create(HomePageSchema, { bannerH1: `${title(language)} (home)` }),
          etag: 'h1',
        }),
        getProfessionalPage: ({ language }) => ({
          page: create(ProfessionalPageSchema, { bannerH1: `${title(language)} (pro)` }),
          etag: 'p1',
        }),
        listServices: () => ({ services: [] }),
      });
    });
    const { router } = renderApp('/admin/home', transport);
    const banner = () => screen.findByRole('textbox', { name: 'Banner title' });
    expect(await banner()).toHaveValue('Repair (home)');
    for (const [path, heading, value] of [
      ['/admin/frhome', 'Home page (French)', 'Réparer (home)'],
      ['/admin/frphome', 'Professional page (French)', 'Réparer (pro)'],
      ['/admin/phome', 'Professional page (English)', 'Repair (pro)'],
    ] as const) {
      await router.navigate(path);
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeVisible();
      await waitFor(async () => expect(await banner()).toHaveValue(value));
    }
  });
});
