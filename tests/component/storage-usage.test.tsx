import { render, screen } from '@solidjs/testing-library';
import { createStore } from 'solid-js/store';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationSizes } from '../../src/schema/protocol';
import { AppContext, type AppServices } from '../../src/ui/state/app-context';
import { StorageUsage } from '../../src/ui/settings/StorageUsage';

describe('StorageUsage', () => {
  it('measures once at a time: changes while a measurement runs ask for one more, not one each', async () => {
    const [state, setState] = createStore({ conversationOrder: ['a'] });
    const releases: Array<(sizes: ConversationSizes) => void> = [];
    const send = vi.fn((command: { type: string }) =>
      command.type === 'storage.conversationSizes' ? new Promise<ConversationSizes>((resolve) => releases.push(resolve)) : Promise.resolve(undefined),
    );
    const services = { client: { send, onEvent: () => () => undefined }, state, dispatch: () => undefined } as unknown as AppServices;
    render(() => (
      <AppContext.Provider value={services}>
        <StorageUsage />
      </AppContext.Provider>
    ));
    const measurements = () => send.mock.calls.filter(([command]) => command.type === 'storage.conversationSizes').length;
    expect(measurements()).toBe(1);
    // An import lands conversation after conversation while the first walk is still running.
    setState('conversationOrder', ['a', 'b']);
    setState('conversationOrder', ['a', 'b', 'c']);
    setState('conversationOrder', ['a', 'b', 'c', 'd']);
    expect(measurements()).toBe(1);
    releases[0]!({ largest: [], conversations: 1, totalBytes: 10 });
    await vi.waitFor(() => expect(measurements()).toBe(2));
    releases[1]!({ largest: [{ conversationId: 'd', title: 'Dee', bytes: 2048, messages: 3 }], conversations: 4, totalBytes: 4096 });
    expect(await screen.findByText('Dee')).toBeInTheDocument();
    expect(measurements()).toBe(2);
  });

  it("says what the in-browser models' files take, as the worker sums them", async () => {
    const [state] = createStore({ conversationOrder: ['a'] });
    const send = vi.fn(async (command: { type: string }) => {
      if (command.type === 'storage.conversationSizes') return { largest: [], conversations: 1, totalBytes: 2000 } satisfies ConversationSizes;
      if (command.type === 'localModel.storedBytes') return { bytes: 528_416 };
      return undefined;
    });
    // The browser's own figure for its file system is not the models' size (about a kilobyte of its own bookkeeping).
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { storage: { estimate: async () => ({ usage: 3000, quota: 1e9, usageDetails: { fileSystem: 1024 } }) } }));
    const services = { client: { send, onEvent: () => () => undefined }, state, dispatch: () => undefined } as unknown as AppServices;
    render(() => (
      <AppContext.Provider value={services}>
        <StorageUsage />
      </AppContext.Provider>
    ));
    expect(await screen.findByText(/In-browser models take 528 KB\./)).toBeInTheDocument();
    vi.unstubAllGlobals();
  });
});
