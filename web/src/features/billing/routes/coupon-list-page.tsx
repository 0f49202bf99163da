import { Button, HStack, Stack, Switch } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { PageTitle } from '@/components/page-title';
import { PagedList } from '@/components/paged-list';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LinkButton } from '@/components/ui/links';
import type { Column } from '@/components/ui/simple-table';
import { toaster } from '@/components/ui/toast';
import type { Coupon } from '@/gen/repairs/billing/v1/billing_pb';
import { formatNumber, formatPercent } from '@/lib/money';
import { readRpcError } from '@/lib/rpc-error';
import { useLanguage } from '@/lib/use-language';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useDateFormat } from '@/lib/use-date-format';
import { useDeleteCoupon } from '../api/delete-coupon';
import { useCouponsPage } from '../api/list-coupons';
import { useSetCouponActive } from '../api/set-coupon-active';
import { CREATE_COUPON_PATH } from '../paths';

/**
 * /admin/coupon-list: every coupon with its discount, uses, expiry and on/off switch
 * (BillingService.SetCouponActive), and Delete after 'Are you sure you want to delete this
 * coupon?' (BillingService.DeleteCoupon).
 */
export function CouponListPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const formatDate = useDateFormat();
  const problemMessage = useProblemMessage();
  const pages = usePageTokens();
  const { data, isPending, error } = useCouponsPage(pages.token);
  const setActive = useSetCouponActive();
  const remove = useDeleteCoupon();
  const [deleting, setDeleting] = useState<Coupon | null>(null);
  const failed = (failure: unknown) =>
    toaster.create({ type: 'error', title: problemMessage(readRpcError(failure)) });

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(
      { id: deleting.id },
      {
        onSuccess: () => toaster.create({ type: 'success', title: t('coupons.deleted') }),
        onError: failed,
        onSettled: () => setDeleting(null),
      },
    );
  };

  const columns: Column<Coupon>[] = [
    { header: t('coupons.code'), cell: (coupon) => coupon.code },
    {
      header: t('coupons.discount'),
      cell: (coupon) => formatPercent(coupon.discountPercent, language),
    },
    {
      header: t('coupons.uses'),
      cell: (coupon) =>
        t('coupons.usesOf', {
          count: formatNumber(coupon.redemptionCount, language),
          limit:
            coupon.maxRedemptions > 0
              ? formatNumber(coupon.maxRedemptions, language)
              : t('coupons.noLimit'),
        }),
    },
    {
      header: t('coupons.expires'),
      cell: (coupon) => (coupon.expireTime ? formatDate(coupon.expireTime) : t('coupons.never')),
    },
    {
      header: t('coupons.active'),
      cell: (coupon) => (
        <Switch.Root
          colorPalette="brand"
          checked={coupon.active}
          disabled={setActive.isPending && setActive.variables?.id === coupon.id}
          onCheckedChange={({ checked }) =>
            setActive.mutate({ id: coupon.id, active: checked }, { onError: failed })
          }
        >
          <Switch.HiddenInput />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label srOnly>{t('coupons.activeLabel', { code: coupon.code })}</Switch.Label>
        </Switch.Root>
      ),
    },
    {
      header: t('common.actions'),
      hiddenHeader: true,
      cell: (coupon) => (
        <Button
          size="sm"
          colorPalette="red"
          variant="outline"
          aria-label={t('coupons.deleteLabel', { code: coupon.code })}
          onClick={() => setDeleting(coupon)}
        >
          <Trash2 aria-hidden />
          {t('common.delete')}
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="6">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <PageTitle title={t('pages.adminCouponList')} />
        <LinkButton to={CREATE_COUPON_PATH} colorPalette="accent">
          {t('pages.adminCreateCoupon')}
        </LinkButton>
      </HStack>
      <PagedList
        caption={t('pages.adminCouponList')}
        emptyTitle={t('coupons.none')}
        columns={columns}
        rowKey={(coupon) => coupon.id}
        rows={data?.coupons}
        nextPageToken={data?.nextPageToken ?? ''}
        isPending={isPending}
        error={error}
        pages={pages}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('coupons.deleteQuestion')}
        confirmLabel={t('common.delete')}
        destructive
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
      >
        {deleting?.code}
      </ConfirmDialog>
    </Stack>
  );
}
