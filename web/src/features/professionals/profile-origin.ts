/**
 * Where a customer opened a professional's public profile from (a quote, a hired job),
 * carried in the link's router state: the profile's way back, and while the professional's
 * quote on an open request can still be chosen, its way to the hire.
 */
export interface ProfileOrigin {
  /** The page to go back to. */
  back: string;
  /** What that page is, for the back link's words. */
  backTo: 'quotes' | 'quote' | 'request';
  /** Where the hire happens (the request's quotes), while this professional can be hired. */
  hireAt?: string;
}

const BACK_TO: readonly ProfileOrigin['backTo'][] = ['quotes', 'quote', 'request'];

/** The origin in a location's state, if it holds one (a reload keeps it; a shared link does not). */
export function readProfileOrigin(state: unknown): ProfileOrigin | undefined {
  const origin = (state as { profileOrigin?: Partial<ProfileOrigin> } | null)?.profileOrigin;
  const inApp = (path: unknown): path is string =>
    typeof path === 'string' && path.startsWith('/') && !path.startsWith('//');
  if (!origin || !inApp(origin.back) || !BACK_TO.includes(origin.backTo!)) return undefined;
  return {
    back: origin.back,
    backTo: origin.backTo!,
    hireAt: inApp(origin.hireAt) ? origin.hireAt : undefined,
  };
}

/**
 * A link to a professional's public profile (`to` and `state`, for AppLink or LinkButton),
 * telling it where it was opened from.
 */
export const publicProfileTarget = (professionalId: string, origin?: ProfileOrigin) => ({
  to: `/view-professional/${encodeURIComponent(professionalId)}`,
  state: origin && { profileOrigin: origin },
});
