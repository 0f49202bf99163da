import type { DescMessage, DescMethod, DescMethodUnary, DescService } from '@bufbuild/protobuf';
import { createConnectQueryKey, useMutation } from '@connectrpc/connect-query';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';

type Schema = DescMethod | DescService;

const keyOf = (schema: Schema) =>
  // Without input, transport or cardinality: matches every cached call of the method (or of
  // every method of the service), whatever the transport (each role has its own).
  createConnectQueryKey({ schema, cardinality: undefined } as Parameters<
    typeof createConnectQueryKey
  >[0]);

/** Marks the cached answers of these methods or services stale; shown ones reload. */
export function invalidate(queryClient: QueryClient, ...schemas: Schema[]): void {
  for (const schema of schemas) void queryClient.invalidateQueries({ queryKey: keyOf(schema) });
}

/** Forgets the cached answers at once: the next screen loads them afresh before deciding. */
export function forget(queryClient: QueryClient, ...schemas: Schema[]): void {
  for (const schema of schemas) queryClient.removeQueries({ queryKey: keyOf(schema) });
}

/** A call that changes records: once it succeeds, the cached answers of `refreshes` reload. */
export function useRefreshingMutation<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
  ...refreshes: Schema[]
) {
  const queryClient = useQueryClient();
  return useMutation(method, { onSuccess: () => invalidate(queryClient, ...refreshes) });
}
