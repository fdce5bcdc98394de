import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';
import type { ConversationExport } from '../../src/schema/records';

async function exportedConversationWithAQuestion() {
  const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
  const ask = { toolCalls: [{ name: 'question', args: { questions: [{ header: 'Trip', question: 'Where?', options: [{ label: 'Beach' }, { label: 'City' }] }] } }] };
  await tab.send({ type: 'settings.update', script: script([{ text: 'Hi!' }, ask]) });
  const { id } = await tab.send({ type: 'conversation.create' });
  await tab.send({ type: 'message.send', conversationId: id, text: 'hello' });
  await waitForRunState(tab, id, ['idle']);
  await tab.send({ type: 'message.send', conversationId: id, text: 'plan a trip' });
  await waitForRunState(tab, id, ['awaiting_input']);
  return { id, file: await tab.send({ type: 'conversation.export' }) };
}

describe('import of an export', () => {
  it('restores every conversation and message in another browser; its pending question comes closed, as nothing imported waits', async () => {
    const { id, file } = await exportedConversationWithAQuestion();
    const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const title = file.conversations[0]!.conversation.title;
    expect(await elsewhere.send({ type: 'conversation.import', data: JSON.parse(JSON.stringify(file)) })).toEqual({ imported: 1, skipped: 0, repairs: [{ conversationTitle: title, code: 'extra_pending_question' }] });
    const { conversation, messages } = await elsewhere.send({ type: 'conversation.open', conversationId: id });
    expect(messages.slice(0, -1)).toEqual(file.conversations[0]!.messages.slice(0, -1));
    expect(conversation).toEqual({ ...file.conversations[0]!.conversation, runState: 'idle' });
    expect(messages.at(-1)!.blocks.find((block) => block.type === 'request')).toMatchObject({ status: 'denied', resolution: 'dismissed' });
    expect(await elsewhere.send({ type: 'requests.listPending' })).toEqual([]);
    // One list refresh for the whole import, not one event per conversation (10,000 of those froze the page).
    const imports = elsewhere.events.filter((event) => event.type === 'conversations-imported');
    expect(imports).toHaveLength(1);
    expect(imports[0]?.type === 'conversations-imported' && imports[0].conversations.map((conversation) => conversation.id)).toEqual([id]);
    expect(elsewhere.events.some((event) => event.type === 'conversation-upserted' || event.type === 'message-upserted')).toBe(false);
  });

  it('skips what is already here, so importing the same file twice changes nothing', async () => {
    const { file } = await exportedConversationWithAQuestion();
    const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await elsewhere.send({ type: 'conversation.import', data: file });
    const before = await elsewhere.send({ type: 'conversation.export' });
    expect(await elsewhere.send({ type: 'conversation.import', data: file })).toEqual({ imported: 0, skipped: 1, repairs: [] });
    expect({ ...(await elsewhere.send({ type: 'conversation.export' })), exportedAt: 0 }).toEqual({ ...before, exportedAt: 0 });
  });

  it('brings a run that was live when exported back as interrupted, and drops an unknown profile', async () => {
    const { file } = await exportedConversationWithAQuestion();
    const entry = file.conversations[0]!;
    const live: ConversationExport = {
      ...file,
      conversations: [{ conversation: { ...entry.conversation, runState: 'running', profileId: 'not-here' }, messages: entry.messages.map((message, index) => {
        if (index !== entry.messages.length - 1) return message;
        // A reply still streaming holds no question yet.
        const { pendingRequestId: _pending, ...rest } = message;
        return { ...rest, status: 'streaming' as const, blocks: [{ type: 'text' as const, text: 'Half a rep' }] };
      }) }],
    };
    const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await elsewhere.send({ type: 'conversation.import', data: live });
    const { conversation, messages } = await elsewhere.send({ type: 'conversation.open', conversationId: entry.conversation.id });
    expect(conversation.runState).toBe('interrupted');
    expect(conversation.profileId).toBeUndefined();
    expect(messages.at(-1)?.status).toBe('interrupted');
  });

  it('refuses a file that is not a valid export, writing nothing', async () => {
    const { file } = await exportedConversationWithAQuestion();
    const entry = file.conversations[0]!;
    const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const bad: unknown[] = [
      null,
      { format: 'something-else', version: 1, exportedAt: 0, conversations: [] },
      { ...file, conversations: [{ ...entry, messages: [{ ...entry.messages[0], role: 'system' }] }] },
      { ...file, conversations: [{ ...entry, messages: [entry.messages[0], { ...entry.messages[1]!, seq: entry.messages[0]!.seq }] }] },
      { ...file, conversations: [{ ...entry, messages: [{ ...entry.messages[0]!, conversationId: 'other' }] }] },
    ];
    // The UI words each refusal from its reason and params (which field, which conversation), not from the message.
    const reasons = [
      { reason: 'import_not_export' },
      { reason: 'import_not_export', params: { field: 'format' } },
      { reason: 'import_not_export', params: { field: 'conversations.0.messages.0.role' } },
      { reason: 'import_inconsistent', params: { conversation: 1 } },
      { reason: 'import_inconsistent', params: { conversation: 1 } },
    ];
    for (const [index, data] of bad.entries()) {
      await expect(elsewhere.send({ type: 'conversation.import', data })).rejects.toMatchObject({ code: 'invalid_command', message: expect.stringContaining('Nothing was imported'), ...reasons[index] });
    }
    expect(await elsewhere.send({ type: 'conversation.list' })).toEqual([]);
    expect(elsewhere.events).toEqual([]);
  });
});

describe('import of hostile or impossible files', () => {
  const base = async () => (await exportedConversationWithAQuestion()).file;

  it('refuses tool-call arguments that could reach a prototype, naming where, and writes nothing', async () => {
    const file = await base();
    const message = file.conversations[0]!.messages[1]!;
    message.blocks.unshift({ type: 'error', code: 'bad_stream', message: 'cut' }, { type: 'tool_call', toolCallId: 't1', toolName: 'get_current_time', args: JSON.parse('{"a": {"__proto__": {"polluted": "yes"}}}'), status: 'success', result: 'now' });
    const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const refused = await elsewhere.send({ type: 'conversation.import', data: file }).then(() => undefined, (error: unknown) => error as Error & { code: string });
    expect(refused?.code).toBe('invalid_command');
    expect(refused?.message).toContain('conversation 1, message 2');
    expect(refused?.message).toContain('__proto__');
    expect(refused).toMatchObject({ reason: 'unsafe_data', params: { conversation: 1, message: 2, part: 'arguments' } });
    expect(await elsewhere.send({ type: 'conversation.list' })).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses arguments nested too deep or too large', async () => {
    let deep: unknown = 'end';
    for (let index = 0; index < 40; index += 1) deep = { next: deep };
    for (const args of [deep, { text: 'x'.repeat(300_000) }]) {
      const file = await base();
      file.conversations[0]!.messages[1]!.blocks.unshift({ type: 'tool_call', toolCallId: 't1', toolName: 'x', args, status: 'success', result: 'ok' });
      const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
      await expect(elsewhere.send({ type: 'conversation.import', data: file })).rejects.toMatchObject({ code: 'invalid_command' });
    }
  });

  it('bounds every free-form field, not only tool-call arguments, naming the conversation and the field', async () => {
    const nested = (levels: number): unknown => {
      let value: unknown = 'end';
      for (let index = 0; index < levels; index += 1) value = { next: value };
      return value;
    };
    const toolCall = { type: 'tool_call' as const, toolCallId: 't1', toolName: 'x', args: {}, status: 'success' as const, result: 'ok' };
    const elicitation = { type: 'request' as const, kind: 'elicitation' as const, requestId: 'e1', toolCallId: 't1', payload: { serverName: 's', message: 'Which?', requestedSchema: { type: 'object' } }, status: 'success' as const, resolution: 'accepted' as const, response: { content: {} } };
    const source = { kind: 'mcp' as const, serverId: 's', serverName: 's', toolName: 'x' };
    const cases = [
      { part: 'form_content', block: { ...elicitation, response: { content: { answer: nested(3_000) } } } },
      { part: 'requested_schema', block: { ...elicitation, payload: { ...elicitation.payload, requestedSchema: { properties: nested(40) } } } },
      { part: 'input_schema', block: { ...toolCall, source: { ...source, inputSchema: { properties: nested(40) } } } },
      { part: 'original_arguments', block: { ...toolCall, originalArgs: { text: 'x'.repeat(300_000) } } },
    ];
    for (const { part, block } of cases) {
      const file = await base();
      file.conversations[0]!.messages[1]!.blocks.unshift(block);
      const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
      await expect(elsewhere.send({ type: 'conversation.import', data: file })).rejects.toMatchObject({ code: 'invalid_command', reason: 'unsafe_data', params: { conversation: 1, message: 2, part } });
      expect(await elsewhere.send({ type: 'conversation.list' })).toEqual([]);
    }
  });

  it('refuses a field nested too deep to be stored at all cleanly, before anything is written', async () => {
    const file = await base();
    const levels = 100_000;
    const marker = '"MARKER"';
    file.conversations[0]!.messages[1]!.blocks.unshift({ type: 'request', kind: 'elicitation', requestId: 'e1', toolCallId: 't1', payload: { serverName: 's', message: 'Which?', requestedSchema: {} }, status: 'success', resolution: 'accepted', response: { content: { answer: 'MARKER' } } });
    const text = JSON.stringify(file).replace(marker, `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);
    const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await expect(elsewhere.send({ type: 'conversation.import', file: new Blob([text]) })).rejects.toMatchObject({ code: 'invalid_command', reason: 'unsafe_data', params: { conversation: 1, part: 'form_content' }, message: expect.stringContaining('Nothing was imported') });
    expect(await elsewhere.send({ type: 'conversation.list' })).toEqual([]);
  });

  it('refuses two messages with one id instead of keeping one of them', async () => {
    const file = await base();
    const messages = file.conversations[0]!.messages;
    messages.push({ ...messages[0]!, seq: 99 });
    const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await expect(elsewhere.send({ type: 'conversation.import', data: file })).rejects.toMatchObject({ code: 'invalid_command', reason: 'duplicate_message_id', message: expect.stringContaining('appears twice') });
  });

  it('repairs "awaiting input" with no question, and closes a question even in an idle conversation, and says which', async () => {
    const waitingForNothing = await base();
    const entry = waitingForNothing.conversations[0]!;
    const last = entry.messages.at(-1)!;
    last.blocks = last.blocks.filter((block) => block.type !== 'request');
    delete last.pendingRequestId;
    const questionInIdle = await base();
    questionInIdle.conversations[0]!.conversation.runState = 'idle';

    const first = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const one = await first.send({ type: 'conversation.import', data: waitingForNothing });
    expect(one.repairs).toEqual([{ conversationTitle: entry.conversation.title, code: 'waiting_without_question' }]);
    expect((await first.send({ type: 'conversation.open', conversationId: entry.conversation.id })).conversation.runState).toBe('idle');

    const second = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const two = await second.send({ type: 'conversation.import', data: questionInIdle });
    expect(two.repairs.map((repair) => repair.code)).toEqual(['extra_pending_question']);
    expect(await second.send({ type: 'requests.listPending' })).toEqual([]);
  });

  it('never throws anything but a WireError nor pollutes a prototype, whatever a message holds', async () => {
    const fc = (await import('fast-check')).default;
    const file = await base();
    const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'type', 'blocks'), fc.string({ maxLength: 3 }));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }), { maxLength: 3 }), async (blocks) => {
        const hostile = JSON.parse(JSON.stringify({ ...file, conversations: [{ ...file.conversations[0], messages: [{ ...file.conversations[0]!.messages[0], blocks }] }] })) as unknown;
        await elsewhere.send({ type: 'conversation.import', data: hostile }).catch((error: unknown) => {
          expect((error as Error).name).toBe('WireError');
        });
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
      }),
      { numRuns: 60 },
    );
  });
});

describe('export', () => {
  it('reads everything in one transaction, so it is a snapshot of one moment', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tab.send({ type: 'settings.update', script: script([{ text: 'Hi!' }]) });
    for (let index = 0; index < 3; index += 1) {
      const { id: conversationId } = await tab.send({ type: 'conversation.create' });
      await tab.send({ type: 'message.send', conversationId, text: `hello ${index}` });
      await waitForRunState(tab, conversationId, ['idle']);
    }
    const prototype = (globalThis as unknown as { IDBDatabase: { prototype: { transaction: (...args: unknown[]) => unknown } } }).IDBDatabase.prototype;
    const original = prototype.transaction;
    let transactions = 0;
    prototype.transaction = function (this: unknown, ...args: unknown[]) {
      transactions += 1;
      return original.apply(this, args);
    };
    try {
      const file = await tab.send({ type: 'conversation.export' });
      expect(file.conversations).toHaveLength(3);
      expect(file.conversations.every((entry) => entry.messages.length === 2)).toBe(true);
    } finally {
      prototype.transaction = original;
    }
    expect(transactions).toBe(1);
  });

  it('leaves out what a provider said in an error, keeping the code', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const created = await tab.send({ type: 'conversation.create' });
    const providerText = 'Incorrect API key provided: sk-RED***CRET for org acme';
    await tab.host.store.write({
      conversation: { ...created, runState: 'error', runError: { code: 'auth', message: providerText } },
      messages: [{ id: 'm1', conversationId: created.id, seq: 0, role: 'assistant', blocks: [{ type: 'error', code: 'auth', message: providerText }], status: 'error', createdAt: 1, updatedAt: 1 }],
    });
    const text = JSON.stringify(await tab.send({ type: 'conversation.export' }));
    expect(text).not.toContain('acme');
    expect(text).not.toContain('RED');
    expect(text).toContain('"code":"auth"');
  });
});
