import type { SessionEnvironment } from './session';
import { browserStore } from './storage';

/** The real environment of the session rules: localStorage and the system clock. */
export function browserSessionEnvironment(): SessionEnvironment {
  return { store: browserStore(), now: () => Date.now() };
}
