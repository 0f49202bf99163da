import { useTranslation } from 'react-i18next';
import { FormField } from '@/components/ui/form-field';
import { SelectInput } from '@/components/ui/select-input';
import { isQuoteOrder, QUOTE_ORDERS, type QuoteOrder } from '../quote-order';

/** The order of the customer's quotes: a native select, the phone's own picker on mobile. */
export function QuoteSort({
  value,
  onChange,
}: {
  value: QuoteOrder;
  onChange: (order: QuoteOrder) => void;
}) {
  const { t } = useTranslation();
  return (
    <FormField label={t('arrival.sort.label')}>
      <SelectInput
        width={{ base: 'full', sm: 'xs' }}
        minH="11"
        options={QUOTE_ORDERS.map((order) => ({ value: order, label: t(`arrival.sort.${order}`) }))}
        value={value}
        onChange={(event) => {
          if (isQuoteOrder(event.target.value)) onChange(event.target.value);
        }}
      />
    </FormField>
  );
}
