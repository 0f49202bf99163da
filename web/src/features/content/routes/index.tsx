/**
 * The content screens at their paths (the routes table adds each one's /fr twin): the landing
 * pages, the public pages, and the admins' service, page, inbox and legal editors;
 * src/app/routes.tsx gives each group its layout and guard.
 */
import type { RouteObject } from 'react-router';
import type { Language } from '@/lib/language';
import { page } from '@/lib/lazy-routes';
import { HomePage } from './home-page';
import type { LandingPageKind } from './page-editor-routes';

/** A landing page's text editor in one language, loaded with the content screens. */
const landingEditor = (kind: LandingPageKind, language: Language) => () =>
  import('./page-editor-routes').then((m) => (
    <m.LandingPageEditor kind={kind} language={language} />
  ));

export const contentRoutes = {
  home: [{ path: '/', element: <HomePage /> }],
  // Loaded when opened, as the sign-in pages are (its membership price brings the billing
  // contract): the home page alone is in every page's first load.
  professionalLanding: [
    page('/professional', () =>
      import('./professional-landing-page').then((m) => <m.ProfessionalLandingPage />),
    ),
  ],
  public: [
    {
      path: '/contact',
      lazy: async () => {
        const { ContactPage } = await import('./contact-page');
        return { Component: ContactPage };
      },
    },
    {
      path: '/terms-and-conditions',
      lazy: async () => {
        const { LegalPage } = await import('./legal-page');
        return { element: <LegalPage kind="terms" /> };
      },
    },
    {
      path: '/privacy-policy',
      lazy: async () => {
        const { LegalPage } = await import('./legal-page');
        return { element: <LegalPage kind="privacy" /> };
      },
    },
  ],
  adminArea: [
    page('/admin/service-list', () =>
      import('./service-list-page').then((m) => <m.ServiceListPage />),
    ),
    page('/admin/add-service', () =>
      import('./service-form-page').then((m) => <m.AddServicePage />),
    ),
    page('/admin/edit-service/:id', () =>
      import('./service-form-page').then((m) => <m.EditServicePage />),
    ),
    page('/admin/delete-service/:id', () =>
      import('./delete-service-page').then((m) => <m.DeleteServicePage />),
    ),
    page('/admin/home', landingEditor('home', 'en')),
    page('/admin/frhome', landingEditor('home', 'fr')),
    page('/admin/phome', landingEditor('professional', 'en')),
    page('/admin/frphome', landingEditor('professional', 'fr')),
    page('/admin/contact-messages', () =>
      import('./contact-inbox-page').then((m) => <m.ContactInboxPage />),
    ),
    page('/admin/legal-pages', () =>
      import('./legal-editor-page').then((m) => <m.LegalEditorPage />),
    ),
  ],
} satisfies Record<string, RouteObject[]>;
