import { describe, expect, it } from 'vitest';
import { DRAFT_MAX_AGE_MS, clearDraft, forgetDrafts, readDraft, saveDraft } from './drafts';
import { createMemoryStore } from './storage';

const NOW = 1_767_225_600_000;

describe('drafts', () => {
  it('gives back what was typed, to the same account only', () => {
    const store = createMemoryStore();
    saveDraft(store, 'c1', 'create-request', { description: 'Leak', urgency: 'immediate' }, NOW);
    expect(readDraft(store, 'c1', 'create-request', NOW + 1000)).toEqual({
      description: 'Leak',
      urgency: 'immediate',
    });
    expect(readDraft(store, 'c2', 'create-request', NOW)).toBeNull();
    expect(readDraft(store, 'c1', 'quote:r1', NOW)).toBeNull();
  });

  it('keeps text, choices and boxes only, and no draft for an empty form', () => {
    const store = createMemoryStore();
    saveDraft(store, 'c1', 'f', { hours: '2', surge: true, file: { name: 'x' }, n: 3 }, NOW);
    expect(readDraft(store, 'c1', 'f', NOW)).toEqual({ hours: '2', surge: true });
    saveDraft(store, 'c1', 'f', { hours: ' ', surge: false }, NOW);
    expect(readDraft(store, 'c1', 'f', NOW)).toBeNull();
    expect(store.getItem('drafts:c1')).toBeNull();
  });

  it('forgets a draft once sent, and all of an account’s drafts when it signs out', () => {
    const store = createMemoryStore();
    saveDraft(store, 'c1', 'a', { text: 'one' }, NOW);
    saveDraft(store, 'c1', 'b', { text: 'two' }, NOW);
    clearDraft(store, 'c1', 'a');
    expect(readDraft(store, 'c1', 'a', NOW)).toBeNull();
    expect(readDraft(store, 'c1', 'b', NOW)).toEqual({ text: 'two' });
    forgetDrafts(store, 'c1');
    expect(readDraft(store, 'c1', 'b', NOW)).toBeNull();
  });

  it('lets a draft go after a week', () => {
    const store = createMemoryStore();
    saveDraft(store, 'c1', 'old', { text: 'old' }, NOW);
    expect(readDraft(store, 'c1', 'old', NOW + DRAFT_MAX_AGE_MS)).toEqual({ text: 'old' });
    expect(readDraft(store, 'c1', 'old', NOW + DRAFT_MAX_AGE_MS + 1)).toBeNull();
    saveDraft(store, 'c1', 'new', { text: 'new' }, NOW + DRAFT_MAX_AGE_MS + 1);
    expect(JSON.parse(store.getItem('drafts:c1') ?? '{}')).not.toHaveProperty('old');
  });

  it('survives what it cannot read', () => {
    const store = createMemoryStore({ 'drafts:c1': 'not json' });
    expect(readDraft(store, 'c1', 'f', NOW)).toBeNull();
    saveDraft(store, 'c1', 'f', { text: 'again' }, NOW);
    expect(readDraft(store, 'c1', 'f', NOW)).toEqual({ text: 'again' });
  });
});
