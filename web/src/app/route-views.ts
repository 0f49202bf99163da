/**
 * Every screen of the router as a concrete path and the kind of account it is for, read from
 * the route table itself (its guards), so that the accessibility walk of the end-to-end suite
 * checks routes added later without a hand-kept list.
 */
import { isValidElement, type ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { CustomerGate, RequireRole, RequireSignedIn } from '@/features/accounts/routes';
import { ProfessionalGate } from '@/features/professionals/routes';
import { isFrenchPath } from '@/lib/language';
import type { Role } from '@/lib/session';

/**
 * Who a screen is for: signed out (`public`), or a role in the state its guards ask for
 * (`*-onboarding`: phone not verified yet; `professional-approved`: approved by an admin).
 */
export type Audience =
  | 'public'
  | 'customer-onboarding'
  | 'customer'
  | 'professional-onboarding'
  | 'professional'
  | 'professional-approved'
  | 'admin';

export interface RouteView {
  /** The route's pattern, e.g. `/admin/view-professional/:id`. */
  pattern: string;
  audience: Audience;
}

/** Where the catch-all route is opened: a path no route has. */
export const NOT_FOUND_SAMPLE_PATH = '/no-such-page';

interface Guards {
  role?: Role;
  phoneStep?: boolean;
  approved?: boolean;
}

/** The guards an element and the elements it wraps apply (RequireRole, the account gates). */
function guardsOf(node: ReactNode, outer: Guards): Guards {
  const guards = { ...outer };
  let current: ReactNode = node;
  while (isValidElement<{ children?: ReactNode }>(current)) {
    const props: Record<string, unknown> = current.props;
    if (current.type === RequireRole) guards.role = props.role as Role;
    // Anyone signed in: walked as the customer, the first role it opens with.
    if (current.type === RequireSignedIn) guards.role = 'customer';
    if (current.type === CustomerGate && props.phoneStep) guards.phoneStep = true;
    if (current.type === ProfessionalGate) {
      if (props.step) guards.phoneStep = true;
      if (props.requireApproval) guards.approved = true;
    }
    current = props.children as ReactNode;
  }
  return guards;
}

function audienceOf({ role, phoneStep, approved }: Guards): Audience {
  if (!role) return 'public';
  if (role === 'admin') return 'admin';
  if (phoneStep) return `${role}-onboarding`;
  if (role === 'professional' && approved) return 'professional-approved';
  return role;
}

/**
 * Every route with a path, in the order of the table, with the audience its guards imply. The
 * /fr twins are left out: the walk opens each route in both languages, and a French reader's
 * visit lands on the twin.
 */
export function routeViews(routes: RouteObject[], outer: Guards = {}): RouteView[] {
  return routes.flatMap((route) => {
    const guards = guardsOf(route.element, outer);
    const own: RouteView[] =
      route.path === undefined || isFrenchPath(route.path)
        ? []
        : [
            {
              pattern: route.path === '*' ? NOT_FOUND_SAMPLE_PATH : route.path,
              audience: audienceOf(guards),
            },
          ];
    return [...own, ...routeViews(route.children ?? [], guards)];
  });
}

/** Fills a pattern's `:name` segments from `params` (a missing name is an error). */
export function fillPattern(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no sample value for :${name} in ${pattern}`);
    return encodeURIComponent(value);
  });
}
