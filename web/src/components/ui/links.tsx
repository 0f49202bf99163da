import { Button, Link, type ButtonProps, type LinkProps } from '@chakra-ui/react';
import { Link as RouterLink, type To } from 'react-router';

type AppLinkProps = Omit<LinkProps, 'href' | 'asChild'> & { to: To };

/** A Chakra-styled link that navigates inside the app. */
export function AppLink({ to, children, ...props }: AppLinkProps) {
  return (
    <Link asChild {...props}>
      <RouterLink to={to}>{children}</RouterLink>
    </Link>
  );
}

type LinkButtonProps = Omit<ButtonProps, 'asChild'> & { to: To };

/** A link that looks like a button (calls to action that go to another page). */
export function LinkButton({ to, children, ...props }: LinkButtonProps) {
  return (
    <Button asChild {...props}>
      <RouterLink to={to}>{children}</RouterLink>
    </Button>
  );
}
