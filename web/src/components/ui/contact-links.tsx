import { Button, Link, type ButtonProps, type LinkProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { formatPhone } from '@/lib/phone';
import { FINGER_TARGET } from '@/theme';

interface PhoneProps {
  /** E.164 ("+14035550100"); nothing is shown without one. */
  phone: string;
  /** The words; the number as it reads ("+1 403 555 0100") by default. */
  children?: ReactNode;
}

const telHref = (phone: string) => `tel:${phone}`;

/** A phone number a tap calls (`tel:`), in the text: a finger-sized target on a phone. */
export function PhoneLink({ phone, children, ...props }: Omit<LinkProps, 'href'> & PhoneProps) {
  if (!phone) return null;
  return (
    <Link href={telHref(phone)} color="brand.fg" {...FINGER_TARGET} {...props}>
      {children ?? formatPhone(phone)}
    </Link>
  );
}

/** A phone number a tap calls, as a button: the call to action of a card. */
export function PhoneButton({
  phone,
  children,
  ...props
}: Omit<ButtonProps, 'asChild'> & PhoneProps) {
  if (!phone) return null;
  return (
    <Button asChild {...props}>
      <a href={telHref(phone)}>{children ?? formatPhone(phone)}</a>
    </Button>
  );
}

/**
 * An email address a tap writes to (`mailto:`), in the text: a finger-sized target on a
 * phone. Nothing without an address.
 */
export function EmailLink({
  email,
  children,
  ...props
}: Omit<LinkProps, 'href'> & { email: string; children?: ReactNode }) {
  if (!email) return null;
  return (
    <Link href={`mailto:${email}`} color="brand.fg" {...FINGER_TARGET} {...props}>
      {children ?? email}
    </Link>
  );
}
