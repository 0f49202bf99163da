import { readRpcError } from '@/lib/rpc-error';
import { useProblemMessage } from './form/use-problem-message';
import { FormAlert } from './ui/form-alert';

/** A failed load, said in the page in the reader's language. */
export function RpcErrorAlert({ error, title }: { error: unknown; title?: string }) {
  const message = useProblemMessage();
  const text = message(readRpcError(error));
  return title ? <FormAlert title={title}>{text}</FormAlert> : <FormAlert title={text} />;
}
