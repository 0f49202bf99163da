import { describe, expect, it } from 'vitest';
import { newRequestId } from './request-id';

describe('newRequestId', () => {
  it('makes a version 4 UUID, a new one each time', () => {
    const first = newRequestId();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newRequestId()).not.toBe(first);
  });
});
