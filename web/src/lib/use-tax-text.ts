import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { QuoteTaxTreatment } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { formatPercent } from './money';
import { useLanguage } from './use-language';

/** The taxes the contract names (TaxLine.name), each with its name in the catalogues. */
const TAX_CODES = ['GST', 'HST', 'QST'] as const;
type TaxCode = (typeof TAX_CODES)[number];
const isTaxCode = (name: string): name is TaxCode =>
  (TAX_CODES as readonly string[]).includes(name);

/**
 * A tax as the reader's language names it, with its rate: "GST 5%", "TVQ 9,975 %". `name` is
 * the contract's code (GST, HST, QST); an unknown one shows as sent.
 */
export function useTaxLabel() {
  const { t } = useTranslation();
  const language = useLanguage();
  return useCallback(
    (name: string, ratePercent: string) =>
      t('billing.taxLine', {
        name: isTaxCode(name) ? t(`billing.taxNames.${name}`) : name,
        rate: formatPercent(Number(ratePercent), language),
      }),
    [t, language],
  );
}

/** What a quote's tax treatment says under its total; nothing when taxes were added. */
export function useTaxTreatmentNote() {
  const { t } = useTranslation();
  return useCallback(
    (treatment: QuoteTaxTreatment | undefined) => {
      switch (treatment) {
        case QuoteTaxTreatment.NOT_REGISTERED:
          return t('billing.taxTreatment.notRegistered');
        case QuoteTaxTreatment.NOT_ADDED:
          return t('billing.taxTreatment.notAdded');
        default:
          return null;
      }
    },
    [t],
  );
}
