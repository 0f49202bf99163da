import { QuoteState } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** Each state a quote can be in, with its catalogue key and colour. */
export const QUOTE_STATES = [
  { state: QuoteState.SUBMITTED, key: 'jobs.quoteStates.submitted', palette: 'blue' },
  { state: QuoteState.HIRED, key: 'jobs.quoteStates.hired', palette: 'green' },
  { state: QuoteState.NOT_SELECTED, key: 'jobs.quoteStates.notSelected', palette: 'gray' },
  { state: QuoteState.WITHDRAWN, key: 'jobs.quoteStates.withdrawn', palette: 'orange' },
] as const;
