import { describe, expect, it } from 'vitest';
import type { AppEvent } from '../../src/schema/events';
import { WireError } from '../../src/schema/protocol';
import { createWorkerClient } from '../../src/ui/state/channel';
import { superviseWorker, type WorkerLike } from '../../src/ui/state/worker-supervisor';

/** A worker stand-in: answers pings and commands until it "dies" (then it hears nothing and says nothing). */
class FakeWorker implements WorkerLike {
  alive = true;
  terminated = false;
  readonly commands: unknown[] = [];
  private readonly listeners: Array<(event: MessageEvent) => void> = [];
  private readonly errorListeners: Array<(event: Event) => void> = [];
  postMessage(message: unknown): void {
    if (!this.alive || this.terminated) return;
    const data = message as { kind: string; id: unknown };
    if (data.kind === 'ping') this.emit({ kind: 'pong', id: data.id });
    else this.commands.push(message);
  }
  addEventListener(type: string, listener: (event: never) => void): void {
    if (type === 'message') this.listeners.push(listener as (event: MessageEvent) => void);
    else if (type === 'error') this.errorListeners.push(listener as (event: Event) => void);
  }
  terminate(): void {
    this.terminated = true;
  }
  emit(data: unknown): void {
    for (const listener of this.listeners) listener(new MessageEvent('message', { data }));
  }
  fail(message: string): void {
    for (const listener of this.errorListeners) listener(new ErrorEvent('error', { message }));
  }
}

/** Manual time: `tick()` runs the supervisor's interval once, `advance` moves the clock. */
function manualTimers() {
  let now = 0;
  let callback: () => void = () => undefined;
  return {
    timers: { setInterval: (run: () => void) => ((callback = run), 1), now: () => now },
    tick: (advanceMs: number) => {
      now += advanceMs;
      callback();
    },
  };
}

function setup(options: { visible?: () => boolean; maxRestarts?: number } = {}) {
  const workers: FakeWorker[] = [];
  const time = manualTimers();
  const port = superviseWorker(
    () => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker;
    },
    { pingIntervalMs: 1000, pingTimeoutMs: 3000, timers: time.timers, isVisible: options.visible ?? (() => true), ...(options.maxRestarts ? { maxRestarts: options.maxRestarts } : {}) },
  );
  const client = createWorkerClient(port, { scheduleFlush: (flush) => flush() });
  const events: AppEvent[] = [];
  client.onEvent((event) => events.push(event));
  return { workers, client, events, tick: time.tick };
}

describe('the worker supervisor', () => {
  it('leaves a worker that answers its pings alone', () => {
    const { workers, tick } = setup();
    for (let index = 0; index < 20; index += 1) tick(1000);
    expect(workers).toHaveLength(1);
    expect(workers[0]!.terminated).toBe(false);
  });

  it('replaces a dead worker, fails the commands it never answered, and says so', async () => {
    const { workers, client, events, tick } = setup();
    workers[0]!.alive = false;
    const stop = client.send({ type: 'run.stop', conversationId: 'c1' });
    tick(1000); // ping sent, no answer
    tick(1000);
    tick(1000);
    expect(workers).toHaveLength(1);
    tick(1000); // unanswered for 3 s: dead
    expect(workers).toHaveLength(2);
    expect(workers[0]!.terminated).toBe(true);
    await expect(stop).rejects.toBeInstanceOf(WireError);
    expect(events).toContainEqual({ type: 'worker-restarted' });

    // The new worker gets the next command, and its answers reach the same client.
    const list = client.send({ type: 'conversation.list' });
    const sent = workers[1]!.commands[0] as { id: string };
    workers[1]!.emit({ kind: 'reply', id: sent.id, ok: true, result: [] });
    await expect(list).resolves.toEqual([]);
  });

  it('does not judge a worker while the page is hidden (its timers run late)', () => {
    let visible = false;
    const { workers, tick } = setup({ visible: () => visible });
    workers[0]!.alive = false;
    for (let index = 0; index < 10; index += 1) tick(1000);
    expect(workers).toHaveLength(1);
    visible = true;
    for (let index = 0; index < 4; index += 1) tick(1000);
    expect(workers).toHaveLength(2);
  });

  it('keeps what the worker says before the app listens: it starts before the app has loaded', () => {
    const workers: FakeWorker[] = [];
    const port = superviseWorker(() => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker;
    }, { timers: manualTimers().timers });
    // Said while the app's code was still loading: the database is newer, then the worker's script failed.
    workers[0]!.emit({ kind: 'event', event: { type: 'app-outdated' } });
    workers[0]!.fail('the script failed');
    // As in the app: events are flushed a frame later, after the app subscribed.
    const flushes: Array<() => void> = [];
    const client = createWorkerClient(port, { scheduleFlush: (flush) => flushes.push(flush) });
    const events: AppEvent[] = [];
    client.onEvent((event) => events.push(event));
    for (const flush of flushes.splice(0)) flush();
    expect(events).toEqual([{ type: 'app-outdated' }, expect.objectContaining({ type: 'storage-error' })]);
    // Kept once: later words go straight through.
    workers[0]!.emit({ kind: 'event', event: { type: 'worker-ready' } });
    for (const flush of flushes.splice(0)) flush();
    expect(events).toHaveLength(3);
  });

  it('gives up on a worker that cannot start at all instead of restarting forever', () => {
    const { workers, tick } = setup({ maxRestarts: 2 });
    const dieOnStart = () => workers.forEach((worker) => (worker.alive = false));
    for (let index = 0; index < 40; index += 1) {
      dieOnStart();
      tick(1000);
    }
    expect(workers).toHaveLength(3);
  });
});
