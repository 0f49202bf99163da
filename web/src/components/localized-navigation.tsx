/**
 * react-router's Link, NavLink and Navigate, whose targets stay in the language of the page
 * (`@/lib/localized-navigation`): the only ones the app's screens use.
 */
import type { ComponentProps } from 'react';
import { Link, Navigate, NavLink } from 'react-router';
import { useLocalizedPath } from '@/lib/localized-navigation';

export function LocalizedLink({ to, ...props }: ComponentProps<typeof Link>) {
  return <Link to={useLocalizedPath()(to)} {...props} />;
}

export function LocalizedNavLink({ to, ...props }: ComponentProps<typeof NavLink>) {
  return <NavLink to={useLocalizedPath()(to)} {...props} />;
}

export function LocalizedNavigate({ to, ...props }: ComponentProps<typeof Navigate>) {
  return <Navigate to={useLocalizedPath()(to)} {...props} />;
}
