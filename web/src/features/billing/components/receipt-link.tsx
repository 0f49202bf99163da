import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/ui/links';
import type { Role } from '@/lib/session';
import { receiptPath } from '../paths';

interface ReceiptLinkProps {
  paymentId: string;
  /** Whose area the receipt opens in (the reader's role). */
  role: Role;
  /** What the link says to a screen reader when "Receipt" alone would not do (in a table). */
  label?: string;
}

/** "Receipt": a payment's printable receipt. */
export function ReceiptLink({ paymentId, role, label }: ReceiptLinkProps) {
  const { t } = useTranslation();
  if (!paymentId) return null;
  return (
    <AppLink to={receiptPath(paymentId, role)} color="brand.fg" aria-label={label}>
      {t('receipts.link')}
    </AppLink>
  );
}
