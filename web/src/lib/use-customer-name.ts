import { useTranslation } from 'react-i18next';

/** A record that names its customer (an order, a review). */
interface NamesCustomer {
  customerName: string;
  /** Set when an admin deleted the customer: the name is then a placeholder. */
  customerDeleted: boolean;
}

/** The customer's name as shown: "Deleted customer" in the reader's language once deleted. */
export function useCustomerName() {
  const { t } = useTranslation();
  return (record: NamesCustomer) =>
    record.customerDeleted ? t('common.deletedCustomer') : record.customerName;
}
