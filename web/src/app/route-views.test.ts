import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fillPattern, NOT_FOUND_SAMPLE_PATH, routeViews } from './route-views';
import { routes } from './routes';

const views = routeViews(routes);
const audienceOf = (pattern: string) => views.find((view) => view.pattern === pattern)?.audience;

describe('route views', () => {
  it('lists every route of the table once', () => {
    const patterns = views.map((view) => view.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
    expect(patterns).toContain(NOT_FOUND_SAMPLE_PATH);
    // The /fr twins are walked through their English pattern, in French.
    expect(patterns.filter((pattern) => pattern.startsWith('/fr'))).toEqual([]);
    // Each pattern is a route of its own: the router matches it to itself.
    for (const pattern of patterns.filter((path) => path !== NOT_FOUND_SAMPLE_PATH)) {
      const path = fillPattern(pattern, {
        id: 'x1',
        phone: '14035550100',
        token: 't',
        req_id: 'r1',
        disputeId: 'd1',
      });
      expect(matchRoutes(routes, path)?.at(-1)?.route.path).toBe(pattern);
    }
  });

  it.each([
    ['/', 'public'],
    ['/login', 'public'],
    ['/reset-password/:id/:token', 'public'],
    ['/phone-otp/:id', 'customer-onboarding'],
    ['/thanks-signup', 'customer'],
    ['/user-account-setting', 'customer'],
    ['/professional-otp-verify/:id/:phone', 'professional-onboarding'],
    ['/professional-dashboard', 'professional'],
    ['/request-list', 'professional-approved'],
    ['/admin/view-professional/:id', 'admin'],
    ['/view-user/:id', 'admin'],
  ])('reads who %s is for from its guards: %s', (pattern, audience) => {
    expect(audienceOf(pattern)).toBe(audience);
  });

  it('fills the parameters of a pattern', () => {
    expect(fillPattern('/otp-verify/:id/:phone', { id: 'a b', phone: '1403' })).toBe(
      '/otp-verify/a%20b/1403',
    );
    expect(() => fillPattern('/hire/:id', {})).toThrow('no sample value for :id');
  });
});
