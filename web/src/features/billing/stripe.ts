import type { Stripe } from '@stripe/stripe-js';
import type { Language } from '@/lib/language';

const loaded = new Map<string, Promise<Stripe | null>>();

/**
 * Stripe.js for a publishable key, loaded once and only when a page asks for it (Stripe mode):
 * the `pure` entry point and a dynamic import keep Stripe's script out of every other page.
 */
export function stripeFor(publishableKey: string, language: Language): Promise<Stripe | null> {
  const key = `${publishableKey}:${language}`;
  let stripe = loaded.get(key);
  if (!stripe) {
    stripe = import('@stripe/stripe-js/pure').then(({ loadStripe }) =>
      loadStripe(publishableKey, { locale: language }),
    );
    loaded.set(key, stripe);
  }
  return stripe;
}
