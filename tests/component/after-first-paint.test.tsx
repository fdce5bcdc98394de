import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint } from '../../src/ui/shell/after-first-paint';

afterEach(() => {
  vi.useRealTimers();
});

describe('afterFirstPaint', () => {
  it('runs the work once, after the next frame, not in the task that asked', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame'] });
    const work = vi.fn();
    afterFirstPaint(work);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersToNextFrame();
    vi.advanceTimersByTime(1);
    expect(work).toHaveBeenCalledTimes(1);
    // The hidden-tab fallback finds it done.
    vi.advanceTimersByTime(5000);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('runs in a tab that paints no frames (hidden) after a second', () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const frames = vi.spyOn(globalThis, 'requestAnimationFrame').mockImplementation(() => 0);
    const work = vi.fn();
    afterFirstPaint(work);
    vi.advanceTimersByTime(999);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(work).toHaveBeenCalledTimes(1);
    frames.mockRestore();
  });
});
