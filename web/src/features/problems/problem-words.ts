import {
  JobEventKind,
  JobProblemOutcome,
  JobProblemState,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import type { TranslationKey } from '@/lib/translation-key';

/** Each history event's words (they take {{detail}}, {{amount}}, {{count}}). */
const EVENT_WORDS: Partial<Record<JobEventKind, TranslationKey>> = {
  [JobEventKind.UNSPECIFIED]: 'problems.events.other',
  [JobEventKind.POSTED]: 'problems.events.posted',
  [JobEventKind.QUOTED]: 'problems.events.quoted',
  [JobEventKind.HIRED]: 'problems.events.hired',
  [JobEventKind.COMPLETED]: 'problems.events.completed',
  [JobEventKind.PAYMENT_CAPTURED]: 'problems.events.captured',
  [JobEventKind.REFUNDED]: 'problems.events.refunded',
  [JobEventKind.MESSAGES]: 'problems.events.messages',
  [JobEventKind.PROBLEM_REPORTED]: 'problems.events.reported',
  [JobEventKind.PROBLEM_RESOLVED]: 'problems.events.resolved',
};

/** Each outcome's name. */
const OUTCOME_WORDS: Partial<Record<JobProblemOutcome, TranslationKey>> = {
  [JobProblemOutcome.UNSPECIFIED]: 'problems.outcomes.none',
  [JobProblemOutcome.NOTE]: 'problems.outcomes.note',
  [JobProblemOutcome.REFUND]: 'problems.outcomes.refund',
  [JobProblemOutcome.NOTHING]: 'problems.outcomes.nothing',
};

/** Each state's name. */
const STATE_WORDS: Partial<Record<JobProblemState, TranslationKey>> = {
  [JobProblemState.UNSPECIFIED]: 'problems.states.all',
  [JobProblemState.OPEN]: 'problems.states.open',
  [JobProblemState.RESOLVED]: 'problems.states.resolved',
};

export const eventWords = (kind: JobEventKind): TranslationKey =>
  EVENT_WORDS[kind] ?? 'problems.events.other';
export const outcomeWords = (outcome: JobProblemOutcome): TranslationKey =>
  OUTCOME_WORDS[outcome] ?? 'problems.outcomes.none';
export const stateWords = (state: JobProblemState): TranslationKey =>
  STATE_WORDS[state] ?? 'problems.states.all';
