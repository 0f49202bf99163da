import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttledSender } from './throttled-sender';

/** A send that answers when the test says. */
function pendingSends() {
  const sent: { value: number; answer: () => void; fail: () => void }[] = [];
  const send = (value: number) =>
    new Promise<void>((resolve, reject) => {
      sent.push({ value, answer: resolve, fail: () => reject(new Error('refused')) });
    });
  return { sent, send, values: () => sent.map(({ value }) => value) };
}

describe('throttledSender', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the first value at once, then only the latest, 20 s after the previous send', async () => {
    const { sent, send, values } = pendingSends();
    const sender = throttledSender(send, 20_000);
    sender.push(1);
    expect(values()).toEqual([1]);
    sent[0]!.answer();
    await vi.advanceTimersByTimeAsync(5_000);
    sender.push(2);
    sender.push(3);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(values()).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(values()).toEqual([1, 3]);
  });

  it('never has two sends in flight: the next waits for the answer', async () => {
    const { sent, send, values } = pendingSends();
    const sender = throttledSender(send, 20_000);
    sender.push(1);
    sender.push(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(values()).toEqual([1]);
    sent[0]!.fail();
    await vi.advanceTimersByTimeAsync(0);
    // More than 20 s passed since the first send: the waiting value goes with the answer.
    expect(values()).toEqual([1, 2]);
  });

  it('sends nothing when nothing new came', async () => {
    const { sent, send, values } = pendingSends();
    const sender = throttledSender(send, 20_000);
    sender.push(1);
    sent[0]!.answer();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(values()).toEqual([1]);
  });

  it('sends nothing more once stopped', async () => {
    const { sent, send, values } = pendingSends();
    const sender = throttledSender(send, 20_000);
    sender.push(1);
    sent[0]!.answer();
    await vi.advanceTimersByTimeAsync(1_000);
    sender.push(2);
    sender.stop();
    sender.push(3);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(values()).toEqual([1]);
  });
});
