import { Alert } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface FormAlertProps {
  status?: 'error' | 'success' | 'info' | 'warning';
  title: string;
  children?: ReactNode;
}

/**
 * A message in the page (never `alert()`): errors are announced at once (`role="alert"`),
 * other news politely (`role="status"`).
 */
export function FormAlert({ status = 'error', title, children }: FormAlertProps) {
  return (
    <Alert.Root status={status} role={status === 'error' ? 'alert' : 'status'}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        {children && <Alert.Description>{children}</Alert.Description>}
      </Alert.Content>
    </Alert.Root>
  );
}
