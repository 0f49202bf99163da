import { Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { AppLink } from '@/components/ui/links';

interface RecordPageProps {
  /** The list the record belongs to, and the words of the way back to it. */
  back: { to: string; label: string };
  title: string;
  /** The record's load: the loader while it is pending, its error in the page if it failed. */
  isPending: boolean;
  error: unknown;
  /** The record, once loaded. */
  children?: ReactNode;
}

/**
 * An admin's page of one record of a queue (a problem after a job, a card dispute): the way
 * back to the queue, the title, the loader or the failure, then the record.
 */
export function RecordPage({ back, title, isPending, error, children }: RecordPageProps) {
  return (
    <Stack gap="6" maxW="4xl">
      <AppLink to={back.to} color="brand.fg" alignSelf="start">
        {back.label}
      </AppLink>
      <PageTitle title={title} />
      {isPending && <RouteLoader />}
      {error ? <RpcErrorAlert error={error} /> : null}
      {children}
    </Stack>
  );
}
