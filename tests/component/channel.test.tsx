import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../src/schema/events';
import { WireError, type CommandEnvelope, type WorkerMessage } from '../../src/schema/protocol';
import type { Conversation } from '../../src/schema/records';
import { createWorkerClient } from '../../src/ui/state/channel';

const conversation: Conversation = { id: 'c1', title: 'Hello', createdAt: 1, updatedAt: 2, runState: 'idle', completedSteps: 0 };

/** A worker stand-in on the far end of a real MessageChannel; `respond` decides each reply. */
function createResponder(respond: (envelope: CommandEnvelope, post: (message: WorkerMessage) => void) => void) {
  const channel = new MessageChannel();
  const received: CommandEnvelope[] = [];
  const post = (message: WorkerMessage) => channel.port2.postMessage(message);
  channel.port2.onmessage = (event: MessageEvent<CommandEnvelope>) => {
    received.push(event.data);
    respond(event.data, post);
  };
  return { port: channel.port1, post, received, close: () => (channel.port1.close(), channel.port2.close()) };
}

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 20));

let closers: Array<() => void> = [];
afterEach(() => {
  closers.forEach((close) => close());
  closers = [];
});

describe('createWorkerClient over a MessageChannel', () => {
  it('resolves a command with its own reply, matched by id', async () => {
    const responder = createResponder((envelope, post) => {
      const command = envelope.command as { type: string };
      post({ kind: 'reply', id: envelope.id, ok: true, result: command.type === 'conversation.list' ? [conversation] : { saved: true } });
    });
    closers.push(responder.close);
    const client = createWorkerClient(responder.port);

    const [list, settings] = await Promise.all([
      client.send({ type: 'conversation.list' }),
      client.send({ type: 'settings.get' }),
    ]);
    expect(list).toEqual([conversation]);
    expect(settings).toEqual({ saved: true });
    expect(responder.received.map((envelope) => envelope.kind)).toEqual(['command', 'command']);
    expect(new Set(responder.received.map((envelope) => envelope.id)).size).toBe(2);
  });

  it('rejects with a rebuilt WireError carrying code, field and outcome', async () => {
    const responder = createResponder((envelope, post) =>
      post({
        kind: 'reply',
        id: envelope.id,
        ok: false,
        error: { code: 'already_resolved', message: 'Already answered', field: 'toolCallId', outcome: { resolution: 'dismissed' } },
      }),
    );
    closers.push(responder.close);
    const client = createWorkerClient(responder.port);

    const failure = await client
      .send({ type: 'request.resolve', conversationId: 'c1', messageId: 'm1', requestId: 't1', approved: false })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WireError);
    expect(failure).toMatchObject({ code: 'already_resolved', message: 'Already answered', field: 'toolCallId', outcome: { resolution: 'dismissed' } });
  });

  it('delivers events batched: one flush for everything that arrived before it', async () => {
    const responder = createResponder(() => {});
    closers.push(responder.close);
    const flushes: Array<() => void> = [];
    const client = createWorkerClient(responder.port, { scheduleFlush: (flush) => flushes.push(flush) });
    const seen: AppEvent[] = [];
    client.onEvent((event) => seen.push(event));

    responder.post({ kind: 'event', event: { type: 'worker-ready' } });
    responder.post({ kind: 'event', event: { type: 'conversation-upserted', conversation } });
    responder.post({ kind: 'event', event: { type: 'storage-error', message: 'full' } });
    await nextTurn();

    expect(seen).toEqual([]);
    expect(flushes).toHaveLength(1);
    flushes[0]!();
    expect(seen.map((event) => event.type)).toEqual(['worker-ready', 'conversation-upserted', 'storage-error']);
  });

  it('applies events queued before a reply ahead of resolving that reply', async () => {
    const responder = createResponder((envelope, post) => {
      post({ kind: 'event', event: { type: 'conversation-upserted', conversation } });
      post({ kind: 'reply', id: envelope.id, ok: true, result: conversation });
    });
    closers.push(responder.close);
    // Frames never come in this test: only the reply can deliver the event.
    const client = createWorkerClient(responder.port, { scheduleFlush: () => {} });
    const order: string[] = [];
    client.onEvent((event) => order.push(`event:${event.type}`));

    await client.send({ type: 'conversation.create' }).then(() => order.push('reply'));
    expect(order).toEqual(['event:conversation-upserted', 'reply']);
  });

  it('stops delivering to a listener once it unsubscribes, and ignores foreign messages', async () => {
    const responder = createResponder(() => {});
    closers.push(responder.close);
    const client = createWorkerClient(responder.port, { scheduleFlush: (flush) => queueMicrotask(flush) });
    const seen: string[] = [];
    const unsubscribe = client.onEvent((event) => seen.push(event.type));

    channelPostRaw(responder, 'not an envelope');
    responder.post({ kind: 'event', event: { type: 'worker-ready' } });
    await nextTurn();
    unsubscribe();
    responder.post({ kind: 'event', event: { type: 'storage-error', message: 'late' } });
    await nextTurn();
    expect(seen).toEqual(['worker-ready']);
  });
});

function channelPostRaw(responder: { post: (message: WorkerMessage) => void }, value: unknown) {
  responder.post(value as WorkerMessage);
}

describe('createWorkerClient when the worker fails', () => {
  /** A stand-in for a Worker: an EventTarget that can fire "error" like a worker whose script failed to load. */
  function fakeWorker() {
    const target = new EventTarget();
    const posted: unknown[] = [];
    return Object.assign(target, { postMessage: (message: unknown) => void posted.push(message), posted });
  }

  it('rejects waiting commands, reports it on screen, and refuses later ones when the worker never started', async () => {
    const worker = fakeWorker();
    const events: AppEvent[] = [];
    const client = createWorkerClient(worker as never, { scheduleFlush: (flush) => queueMicrotask(flush) });
    client.onEvent((event) => events.push(event));
    const waiting = client.send({ type: 'conversation.list' });
    worker.dispatchEvent(Object.assign(new Event('error'), { message: 'SyntaxError' }));
    await expect(waiting).rejects.toMatchObject({ code: 'internal', message: expect.stringContaining('could not start') });
    await expect(client.send({ type: 'settings.get' })).rejects.toBeInstanceOf(WireError);
    await nextTurn();
    expect(events).toEqual([{ type: 'storage-error', message: expect.stringContaining('could not start (SyntaxError)') }]);
  });

  it('keeps waiting commands after a later error: the worker is still running', async () => {
    const worker = fakeWorker();
    const client = createWorkerClient(worker as never, { scheduleFlush: (flush) => queueMicrotask(flush) });
    worker.dispatchEvent(new MessageEvent('message', { data: { kind: 'event', event: { type: 'worker-ready' } } }));
    const waiting = client.send({ type: 'conversation.list' });
    worker.dispatchEvent(new Event('error'));
    const { id } = worker.posted[0] as CommandEnvelope;
    worker.dispatchEvent(new MessageEvent('message', { data: { kind: 'reply', id, ok: true, result: [] } }));
    await expect(waiting).resolves.toEqual([]);
  });
});
