import { Code, ConnectError, createClient, type Client } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import { AccountsService, type Role } from '@/gen/repairs/accounts/v1/accounts_pb';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { readRpcError } from '@/lib/rpc-error';

/** One server replica, called directly (gRPC-web, as the browser speaks it). */
export interface Replica {
  accounts: Client<typeof AccountsService>;
  marketplace: Client<typeof MarketplaceService>;
  /** Its HTTP listener (file downloads, /healthz). */
  http: string;
}

/** Replica `name` (`A` or `B`) of the cluster described by `cluster`. */
export function replica(cluster: Record<string, string>, name: 'A' | 'B'): Replica {
  const transport = createGrpcWebTransport({ baseUrl: `http://${cluster[`SERVER_${name}_GRPC`]}` });
  return {
    accounts: createClient(AccountsService, transport),
    marketplace: createClient(MarketplaceService, transport),
    http: `http://${cluster[`SERVER_${name}_HTTP`]}`,
  };
}

/** Call options carrying a bearer token. */
export const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** A customer's or professional's access token, signed in on `replica`. */
export async function logIn(
  replica: Replica,
  role: Role,
  email: string,
  password: string,
): Promise<string> {
  const { session } = await replica.accounts.logIn({ role, email, password });
  return session?.accessToken ?? '';
}

/** The gRPC code and ErrorInfo reason a call failed with (`OK` when it did not). */
export async function failure(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'OK';
  } catch (error) {
    if (!(error instanceof ConnectError)) throw error;
    const { code, reason } = readRpcError(error);
    return `${Code[code]} ${reason}`;
  }
}

/** The bytes a file link answers when fetched from `http` (a replica's HTTP listener). */
export async function download(fileUrl: string, http: string): Promise<Uint8Array> {
  const link = new URL(fileUrl);
  const response = await fetch(`${http}${link.pathname}${link.search}`);
  if (response.status !== 200) {
    throw new Error(`${link.pathname} answered ${response.status} from ${http}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}
