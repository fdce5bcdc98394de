import { describe, expect, it, vi } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';

// Which of the worker's optional parts were constructed: each is loaded on first use, so a first conversation needs none.
const built = vi.hoisted(() => ({ hubs: 0, searches: 0, branches: 0 }));
// Which modules were evaluated at all: a module imported statically by the host is, as the host's code loads.
const evaluated = vi.hoisted(() => new Set<string>());

vi.mock('../../src/worker/store/storage-usage', async (importOriginal) => {
  evaluated.add('storage-usage');
  return importOriginal();
});

vi.mock('../../src/core/run/take-over-repair', async (importOriginal) => {
  evaluated.add('take-over-repair');
  return importOriginal();
});

/** A class like `Base` that counts its constructions under `key` of `built`. */
const counted = vi.hoisted(
  () =>
    // A mixin's constructor must take `any[]` (TypeScript's rule): it passes on what its base takes.
    <T extends new (...args: any[]) => object>(Base: T, key: 'hubs' | 'searches' | 'branches') =>
      class extends Base {
        constructor(...args: any[]) {
          super(...args);
          built[key] += 1;
        }
      },
);

vi.mock('../../src/worker/mcp/mcp-hub', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/worker/mcp/mcp-hub')>();
  return { ...real, McpHub: counted(real.McpHub, 'hubs') };
});

vi.mock('../../src/worker/search/conversation-search', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/worker/search/conversation-search')>();
  return { ...real, ConversationSearch: counted(real.ConversationSearch, 'searches') };
});

vi.mock('../../src/worker/branches/branch-records', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/worker/branches/branch-records')>();
  return { ...real, BranchRecords: counted(real.BranchRecords, 'branches') };
});

/** A new tab, and a first conversation's reply from the scripted model. */
async function firstReply() {
  const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
  await tab.send({ type: 'settings.update', script: script([{ text: 'You said: {{lastUserMessage}}' }]) });
  const { id: conversationId } = await tab.send({ type: 'conversation.create' });
  await tab.send({ type: 'message.send', conversationId, text: 'Plan my weekend' });
  await waitForRunState(tab, conversationId, ['idle']);
  return { tab, conversationId };
}

describe('the worker code a first conversation does not run', () => {
  it('a reply with no MCP server stored builds neither the MCP hub nor search; the first servers command and the first search do, once', async () => {
    built.hubs = 0;
    built.searches = 0;
    built.branches = 0;
    const { tab, conversationId } = await firstReply();
    try {
      expect(built).toEqual({ hubs: 0, searches: 0, branches: 0 });

      expect(await tab.send({ type: 'mcp.list' })).toEqual([]);
      expect(await tab.send({ type: 'mcp.list' })).toEqual([]);
      const found = await tab.send({ type: 'conversations.search', query: 'weekend' });
      expect(found.results.map((result) => result.conversationId)).toEqual([conversationId]);
      await tab.send({ type: 'conversations.search', query: 'weekend' });
      expect(built).toEqual({ hubs: 1, searches: 1, branches: 0 });
    } finally {
      tab.close();
    }
  });

  it('a first reply builds no versions code; the first regenerate does, once, and makes its new version', async () => {
    built.branches = 0;
    const { tab, conversationId } = await firstReply();
    try {
      expect(built.branches).toBe(0);
      // Settings' storage list and sync's take-over repair: neither is evaluated for a first reply.
      expect([...evaluated]).toEqual([]);
      expect((await tab.send({ type: 'storage.conversationSizes', limit: 5 })).largest.map((size) => size.conversationId)).toEqual([conversationId]);
      expect([...evaluated]).toEqual(['storage-usage']);

      const opened = await tab.send({ type: 'conversation.open', conversationId });
      const reply = opened.messages.at(-1)!;
      const { message } = await tab.send({ type: 'message.regenerate', conversationId, messageId: reply.id });
      expect(message.id).not.toBe(reply.id);
      await waitForRunState(tab, conversationId, ['idle']);
      await tab.send({ type: 'message.selectVersion', conversationId, messageId: reply.id });
      expect(built.branches).toBe(1);
    } finally {
      tab.close();
    }
  });
});
