import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab, answerCommand, dismissCommand } from './host-harness';
import { CHAT_RESULT_TEXT, DISMISSED_RESULT_TEXT } from '../../src/core/requests/question-outcomes';
import type { QuestionRequest } from '../../src/schema/messages/blocks';
import type { Message } from '../../src/schema/records';

const ASK = {
  text: 'Before I plan:',
  toolCalls: [
    {
      name: 'question',
      args: {
        questions: [
          { header: 'Trip', question: 'Where to?', options: [{ label: 'Beach' }, { label: 'City' }], custom: false },
          { header: 'Food', question: 'Which food?', options: [{ label: 'Tapas' }, { label: 'Sushi' }, { label: 'Pizza' }], multiple: true },
        ],
      },
    },
  ],
};
const ECHO = { text: 'Got: {{lastToolResult}} / last user: {{lastUserMessage}}' };

function questionOf(message: Message): QuestionRequest {
  const block = message.blocks.find((candidate) => candidate.type === 'request' && candidate.kind === 'question');
  if (!block || block.type !== 'request' || block.kind !== 'question') throw new Error('no question block');
  return block;
}

function lastText(messages: Message[]): string {
  return messages.at(-1)!.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

async function askInNewConversation(tab: TestTab) {
  const { id: conversationId } = await tab.send({ type: 'conversation.create' });
  await tab.send({ type: 'message.send', conversationId, text: 'Plan a trip' });
  await waitForRunState(tab, conversationId, ['awaiting_input']);
  const { messages } = await tab.send({ type: 'conversation.open', conversationId });
  const message = messages.at(-1)!;
  return { conversationId, messageId: message.id, toolCallId: questionOf(message).toolCallId };
}

async function setup(steps: unknown[] = [ASK, ECHO, ECHO]) {
  const databaseName = uniqueDatabaseName();
  const locks = memoryLocks();
  const tab = await openTab({ databaseName, locks });
  await tab.send({ type: 'settings.update', script: script(steps) });
  return { tab, databaseName, locks };
}

describe('the question pause', () => {
  it('persists the pending question with the run state, lists it, and resumes with the answers', async () => {
    const { tab } = await setup();
    const target = await askInNewConversation(tab);
    const { conversation, messages } = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(conversation.runState).toBe('awaiting_input');
    expect(conversation.completedSteps).toBe(1);
    expect(messages.at(-1)!.pendingRequestId).toBe(target.toolCallId);
    expect(questionOf(messages.at(-1)!)).toMatchObject({ status: 'pending', payload: { questions: [{ multiple: false, custom: false }, { multiple: true, custom: true }] } });
    expect(await tab.send({ type: 'requests.listPending' })).toEqual([expect.objectContaining({ request: expect.objectContaining({ kind: 'question', requestId: target.toolCallId }), conversationId: target.conversationId, messageId: target.messageId, conversationTitle: 'Plan a trip' })]);

    await tab.send(answerCommand(target, [{ selected: ['Beach'] }, { selected: ['Tapas', 'Pizza'], other: 'Dumplings' }]));
    await waitForRunState(tab, target.conversationId, ['idle']);
    const after = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(lastText(after.messages)).toBe('Got: User has answered your questions: "Where to?"="Beach"; "Which food?"=["Tapas", "Pizza"] (typed by the user: "Dumplings"). You can now continue with the user\'s answers in mind. / last user: Plan a trip');
    expect(questionOf(after.messages[1]!)).toMatchObject({ status: 'success', resolution: 'answered' });
    expect(after.messages[1]!.pendingRequestId).toBeUndefined();
    expect(await tab.send({ type: 'requests.listPending' })).toEqual([]);
  });

  it('resumes after a worker restart: a new host on the same database answers and the same turn goes on', async () => {
    const { tab, databaseName, locks } = await setup();
    const target = await askInNewConversation(tab);
    tab.close();
    const restarted = await openTab({ databaseName, locks });
    await restarted.send(answerCommand(target, [{ selected: ['City'] }, { selected: [] }]));
    await waitForRunState(restarted, target.conversationId, ['idle']);
    const { messages } = await restarted.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(messages).toHaveLength(3);
    expect(lastText(messages)).toContain('"Where to?"="City"; "Which food?"=(skipped');
  });

  it('records exactly one outcome when two tabs resolve at once; the loser gets already_resolved with it', async () => {
    const { tab, databaseName, locks } = await setup();
    const target = await askInNewConversation(tab);
    const other = await openTab({ databaseName, locks });
    const results = await Promise.allSettled([
      tab.send(answerCommand(target, [{ selected: ['Beach'] }, { selected: [] }])),
      other.send(answerCommand(target, [{ selected: ['City'] }, { selected: [] }])),
    ]);
    const fulfilled = results.filter((result) => result.status === 'fulfilled');
    const rejected = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    const winner = results[0]!.status === 'fulfilled' ? 'Beach' : 'City';
    expect(rejected[0]!.reason).toMatchObject({ code: 'already_resolved', outcome: { resolution: 'answered', answers: [{ selected: [winner] }, { selected: [] }] } });
    await waitForRunState(tab, target.conversationId, ['idle']);
    const { messages } = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(messages).toHaveLength(3); // one resumed step, not two
    expect(questionOf(messages[1]!).response?.answers).toEqual([{ selected: [winner] }, { selected: [] }]);
  });

  it('a second resolution of any kind writes nothing', async () => {
    const { tab } = await setup();
    const target = await askInNewConversation(tab);
    await tab.send(dismissCommand(target));
    const before = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    await expect(tab.send(answerCommand(target, [{ selected: ['Beach'] }, { selected: [] }]))).rejects.toMatchObject({ code: 'already_resolved', outcome: { resolution: 'dismissed' } });
    await expect(tab.send(dismissCommand(target))).rejects.toMatchObject({ code: 'already_resolved' });
    await expect(tab.send({ type: 'question.saveDraft', ...target, draft: { answers: [] } })).rejects.toMatchObject({ code: 'already_resolved' });
    expect(await tab.send({ type: 'conversation.open', conversationId: target.conversationId })).toEqual(before);
  });

  it('a normal message while pending resolves it as answered in chat and is sent as a user message', async () => {
    const { tab } = await setup();
    const target = await askInNewConversation(tab);
    const message = (await tab.send({ type: 'message.send', conversationId: target.conversationId, text: 'Just somewhere warm' })).message!;
    await waitForRunState(tab, target.conversationId, ['idle']);
    const { messages } = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(questionOf(messages[1]!)).toMatchObject({ status: 'success', resolution: 'chat', response: { answerMessageId: message.id, toolResult: CHAT_RESULT_TEXT } });
    expect(messages[2]).toMatchObject({ id: message.id, role: 'user' });
    expect(lastText(messages)).toBe(`Got: ${CHAT_RESULT_TEXT} / last user: Just somewhere warm`);
  });

  it('dismiss ends the run without a model call; the model hears of it with the next message', async () => {
    const { tab } = await setup();
    const target = await askInNewConversation(tab);
    await tab.send(dismissCommand(target));
    let opened = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(opened.conversation).toMatchObject({ runState: 'idle', completedSteps: 1 });
    expect(questionOf(opened.messages[1]!)).toMatchObject({ status: 'denied', resolution: 'dismissed' });
    await tab.send({ type: 'message.send', conversationId: target.conversationId, text: 'ok, go on' });
    await waitForRunState(tab, target.conversationId, ['idle']);
    opened = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(lastText(opened.messages)).toBe(`Got: ${DISMISSED_RESULT_TEXT} / last user: ok, go on`);
  });

  it('Stop while pending resolves the question as stopped', async () => {
    const { tab } = await setup();
    const target = await askInNewConversation(tab);
    await tab.send({ type: 'run.stop', conversationId: target.conversationId });
    const { conversation, messages } = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(conversation.runState).toBe('idle');
    expect(questionOf(messages[1]!)).toMatchObject({ status: 'denied', resolution: 'stopped' });
  });

  it('refuses answers that do not fit the stored question, and stale or foreign ids, writing nothing', async () => {
    const { tab } = await setup();
    const target = await askInNewConversation(tab);
    const before = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    const wrong = [
      [{ selected: ['Mars'] }, { selected: [] }],
      [{ selected: ['Beach', 'City'] }, { selected: [] }],
      [{ selected: [], other: 'Moon' }, { selected: [] }],
      [{ selected: ['Beach'] }],
    ];
    for (const answers of wrong) {
      await expect(tab.send(answerCommand(target, answers))).rejects.toMatchObject({ code: 'invalid_answer', reason: expect.stringMatching(/^answer_/) });
    }
    await expect(tab.send(answerCommand({ ...target, toolCallId: 'call_9_9' }, wrong[0]!))).rejects.toMatchObject({ code: 'not_found', reason: 'request_gone' });
    const { id: otherConversation } = await tab.send({ type: 'conversation.create' });
    await expect(tab.send(dismissCommand({ ...target, conversationId: otherConversation }))).rejects.toMatchObject({ code: 'not_found', reason: 'message_gone' });
    expect((await tab.send({ type: 'conversation.open', conversationId: target.conversationId })).messages).toEqual(before.messages);
  });

  it('keeps a draft on the pending block and drops it on resolution', async () => {
    const { tab } = await setup();
    const target = await askInNewConversation(tab);
    const draft = { answers: [{ selected: ['City'] }, { selected: ['Sushi'], other: 'half-typ' }], otherChosen: [false, true], activeTab: 1 };
    await tab.send({ type: 'question.saveDraft', ...target, draft });
    let { messages } = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(questionOf(messages[1]!).draft).toEqual(draft);
    await tab.send(answerCommand(target, [{ selected: ['City'] }, { selected: ['Sushi'] }]));
    ({ messages } = await tab.send({ type: 'conversation.open', conversationId: target.conversationId }));
    expect(questionOf(messages[1]!).draft).toBeUndefined();
  });

  it('an invalid question from the model does not pause: the model reads the error and the loop goes on', async () => {
    const invalid = { toolCalls: [{ name: 'question', args: { questions: [{ header: 'X', question: 'Pick?', options: [{ label: 'only' }], custom: false }] } }] };
    const { tab } = await setup([invalid, { text: 'Fixed: {{lastToolResult}}' }]);
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId, text: 'hi' });
    await waitForRunState(tab, conversationId, ['idle']);
    const { messages } = await tab.send({ type: 'conversation.open', conversationId });
    expect(messages[1]!.blocks[0]).toMatchObject({ type: 'tool_call', toolName: 'question', status: 'error' });
    expect(lastText(messages)).toContain('questions[0].options: needs at least 2 options when custom is false');
  });

  it('stops a model that keeps sending invalid questions', async () => {
    const invalid = { toolCalls: [{ name: 'question', args: { questions: [] } }] };
    const { tab } = await setup([invalid, invalid, invalid, invalid, invalid]);
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId, text: 'hi' });
    await waitForRunState(tab, conversationId, ['error']);
    const { conversation } = await tab.send({ type: 'conversation.open', conversationId });
    expect(conversation).toMatchObject({ completedSteps: 3, runError: { code: 'invalid_questions' } });
  });
});
