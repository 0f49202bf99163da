import { Button, Link, type ButtonProps, type LinkProps } from '@chakra-ui/react';
import type { To } from 'react-router';
import { LocalizedLink } from '../localized-navigation';

type AppLinkProps = Omit<LinkProps, 'href' | 'asChild'> & { to: To };

/** A Chakra-styled link that navigates inside the app, in the language of the page. */
export function AppLink({ to, children, ...props }: AppLinkProps) {
  return (
    <Link asChild {...props}>
      <LocalizedLink to={to}>{children}</LocalizedLink>
    </Link>
  );
}

type LinkButtonProps = Omit<ButtonProps, 'asChild'> & { to: To };

/** A link that looks like a button (calls to action that go to another page). */
export function LinkButton({ to, children, ...props }: LinkButtonProps) {
  return (
    <Button asChild {...props}>
      <LocalizedLink to={to}>{children}</LocalizedLink>
    </Button>
  );
}
