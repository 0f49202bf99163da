import { Button, type ButtonProps } from '@chakra-ui/react';
import { fingerSized } from '@/theme';

/**
 * A button that reads as a link (Show the original, Do you have a coupon?): underlined words
 * with no frame, as wide as its words; on a phone a finger-sized target all the same. Long
 * words wrap within their column rather than push the page past a phone's width.
 */
export function TextButton(props: ButtonProps) {
  return (
    <Button
      variant="plain"
      color="brand.fg"
      textDecoration="underline"
      px="0"
      h="auto"
      maxW="full"
      whiteSpace="normal"
      textAlign="start"
      minW={fingerSized('0')}
      minH={fingerSized('auto')}
      {...props}
    />
  );
}
