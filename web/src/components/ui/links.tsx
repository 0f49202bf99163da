import { Button, Link, type ButtonProps, type LinkProps } from '@chakra-ui/react';
import type { To } from 'react-router';
import { FINGER_TARGET } from '@/theme';
import { LocalizedLink } from '../localized-navigation';

/** Where to go, and what the next page is told of where it was opened from (router state). */
interface Target {
  to: To;
  state?: unknown;
}

type AppLinkProps = Omit<LinkProps, 'href' | 'asChild'> &
  Target & {
    /** A link inside a sentence: as tall as the words around it (WCAG 2.5.8's exception). */
    inline?: boolean;
  };

/**
 * A Chakra-styled link that navigates inside the app, in the language of the page; unless
 * `inline`, a finger-sized target on a phone.
 */
export function AppLink({ to, state, inline = false, children, ...props }: AppLinkProps) {
  return (
    <Link asChild {...(inline ? {} : FINGER_TARGET)} {...props}>
      <LocalizedLink to={to} state={state}>
        {children}
      </LocalizedLink>
    </Link>
  );
}

type LinkButtonProps = Omit<ButtonProps, 'asChild'> & Target;

/** A link that looks like a button (calls to action that go to another page). */
export function LinkButton({ to, state, children, ...props }: LinkButtonProps) {
  return (
    <Button asChild {...props}>
      <LocalizedLink to={to} state={state}>
        {children}
      </LocalizedLink>
    </Button>
  );
}
