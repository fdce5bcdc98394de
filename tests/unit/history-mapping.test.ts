import { describe, expect, it } from 'vitest';
import type { AttachmentContent, PromptMessage } from '../../src/core/run/model';
import { toPromptMessages } from '../../src/core/prompt/history';
import { buildPrompt } from '../../src/core/prompt/prompt';
import { resolveQuestionBlock, CHAT_RESULT_TEXT, DISMISSED_RESULT_TEXT, STOPPED_RESULT_TEXT } from '../../src/core/requests/question-outcomes';
import type { Block, QuestionRequest } from '../../src/schema/messages/blocks';
import type { Message, MessageStatus } from '../../src/schema/records';
import type { Question } from '../../src/schema/forms/question';

let sequence = 0;
function message(role: 'user' | 'assistant', blocks: Block[], status: MessageStatus = 'complete'): Message {
  sequence += 1;
  return { id: `m${sequence}`, conversationId: 'c1', seq: sequence, role, blocks, status, createdAt: sequence, updatedAt: sequence };
}
const user = (text: string) => message('user', [{ type: 'text', text }]);

const QUESTIONS: Question[] = [
  { header: 'Budget', question: 'What is your budget?', options: [{ label: 'Low' }, { label: 'High', description: 'Go big' }], multiple: false, custom: true },
  { header: 'Extras', question: 'Which extras?', options: [{ label: 'Wifi' }, { label: 'Pool' }], multiple: true, custom: false },
];
function pendingQuestion(toolCallId = 'q1'): QuestionRequest {
  return { type: 'request', kind: 'question', requestId: toolCallId, toolCallId: toolCallId, payload: { questions: QUESTIONS }, status: 'pending' };
}

/** Every tool call id of the assistant messages, with where its result is. */
function checkPairing(messages: PromptMessage[]) {
  const resultCounts = new Map<string, number>();
  for (const entry of messages) {
    if (entry.role !== 'tool') continue;
    for (const part of entry.content) if (part.type === 'tool-result') resultCounts.set(part.toolCallId, (resultCounts.get(part.toolCallId) ?? 0) + 1);
  }
  messages.forEach((entry, index) => {
    if (entry.role !== 'assistant' || typeof entry.content === 'string') return;
    for (const part of entry.content) {
      if (part.type !== 'tool-call') continue;
      const next = messages[index + 1];
      expect(next?.role, `result of ${part.toolCallId} follows its call`).toBe('tool');
      const ids = next?.role === 'tool' ? next.content.flatMap((result) => (result.type === 'tool-result' ? [result.toolCallId] : [])) : [];
      expect(ids).toContain(part.toolCallId);
      expect(resultCounts.get(part.toolCallId), `result of ${part.toolCallId} sent once`).toBe(1);
    }
  });
  // No orphan results either.
  const callIds = messages.flatMap((entry) =>
    entry.role === 'assistant' && typeof entry.content !== 'string' ? entry.content.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : [])) : [],
  );
  expect([...resultCounts.keys()].sort()).toEqual([...callIds].sort());
}

describe('buildPrompt', () => {
  it('gives the system prompt beside the messages, and sends user text, joining text blocks', () => {
    const history = [message('user', [{ type: 'text', text: 'Plan a trip' }, { type: 'text', text: 'to Lisbon' }])];
    expect(buildPrompt({ history }, 'Be brief.')).toEqual({ system: 'Be brief.', messages: [{ role: 'user', content: 'Plan a trip\n\nto Lisbon' }] });
    expect(buildPrompt({ history }, undefined)).toEqual({ messages: [{ role: 'user', content: 'Plan a trip\n\nto Lisbon' }] });
  });

  it('ends a continuation with the partial reply, its trailing whitespace trimmed; a reply of only whitespace is left out', () => {
    const partial = message('assistant', [{ type: 'text', text: 'Once upon a  \n' }], 'interrupted');
    const continuation = { messageId: partial.id, text: 'Once upon a  \n' };
    expect(buildPrompt({ history: [user('tell me'), partial], continuation }, undefined).messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Once upon a' }] });
    const blank = message('assistant', [{ type: 'text', text: '  ' }], 'interrupted');
    expect(buildPrompt({ history: [user('tell me'), blank], continuation: { messageId: blank.id, text: '  ' } }, undefined).messages).toEqual([{ role: 'user', content: 'tell me' }]);
    // Without a continuation, stored text is sent as it is.
    expect(buildPrompt({ history: [user('tell me'), partial] }, undefined).messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Once upon a  \n' }] });
  });
});

describe('toPromptMessages', () => {
  it('sends assistant text but never reasoning, empty text or error blocks', () => {
    const history = [
      user('hi'),
      message('assistant', [
        { type: 'reasoning', text: 'secret thoughts' },
        { type: 'text', text: '' },
        { type: 'text', text: 'Hello!' },
        { type: 'error', code: 'server', message: 'HTTP 500' },
      ]),
      message('assistant', [{ type: 'reasoning', text: 'only thinking' }, { type: 'error', code: 'network', message: 'offline' }], 'error'),
      user('again'),
    ];
    const messages = toPromptMessages(history);
    expect(messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
      { role: 'user', content: 'again' },
    ]);
    expect(JSON.stringify(messages)).not.toContain('thoughts');
    expect(JSON.stringify(messages)).not.toContain('HTTP 500');
  });

  it('sends a finished tool call, then its result in a tool message right after; an error result as an error output', () => {
    const history = [
      user('time?'),
      message('assistant', [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_call', toolCallId: 't1', toolName: 'get_current_time', args: { zone: 'UTC' }, status: 'success', result: '2025-01-01T00:00:00Z' },
        { type: 'tool_call', toolCallId: 't2', toolName: 'question', args: '{"questions": [', status: 'error', result: 'Invalid input: fix questions' },
      ]),
    ];
    const messages = toPromptMessages(history);
    expect(messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', toolCallId: 't1', toolName: 'get_current_time', input: { zone: 'UTC' } },
          // Arguments that were not a JSON object go as {}: providers (Anthropic) reject anything else.
          { type: 'tool-call', toolCallId: 't2', toolName: 'question', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 't1', toolName: 'get_current_time', output: { type: 'text', value: '2025-01-01T00:00:00Z' } },
          { type: 'tool-result', toolCallId: 't2', toolName: 'question', output: { type: 'error-text', value: 'Invalid input: fix questions' } },
        ],
      },
    ]);
    checkPairing(messages);
  });

  it('never sends a tool call that has no result yet', () => {
    const history = [
      user('go'),
      message('assistant', [
        { type: 'text', text: 'Running' },
        { type: 'tool_call', toolCallId: 't1', toolName: 'get_current_time', args: {}, status: 'pending' },
      ], 'interrupted'),
    ];
    expect(toPromptMessages(history).slice(1)).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'Running' }] }]);
  });

  it('never sends a pending question, but sends the text and the finished calls around it', () => {
    const history = [
      user('plan it'),
      message('assistant', [
        { type: 'text', text: 'A few questions first.' },
        { type: 'tool_call', toolCallId: 't0', toolName: 'get_current_time', args: {}, status: 'success', result: 'noon' },
        pendingQuestion('q1'),
      ]),
    ];
    const messages = toPromptMessages(history);
    expect(JSON.stringify(messages)).not.toContain('q1');
    expect(JSON.stringify(messages)).not.toContain('What is your budget?');
    expect(messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'A few questions first.' }, { type: 'tool-call', toolCallId: 't0', toolName: 'get_current_time', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't0', toolName: 'get_current_time', output: { type: 'text', value: 'noon' } }] },
    ]);
    checkPairing(messages);
  });

  const outcomes = [
    { resolution: 'answered' as const, details: { answers: [{ selected: ['High'] }, { selected: ['Wifi', 'Pool'] }] }, expected: 'User has answered your questions: "What is your budget?"="High"; "Which extras?"=["Wifi", "Pool"]. You can now continue with the user\'s answers in mind.' },
    { resolution: 'chat' as const, details: { answerMessageId: 'm-chat' }, expected: CHAT_RESULT_TEXT },
    { resolution: 'dismissed' as const, details: {}, expected: DISMISSED_RESULT_TEXT },
    { resolution: 'stopped' as const, details: {}, expected: STOPPED_RESULT_TEXT },
  ];
  it.each(outcomes)('sends a question resolved as $resolution as a question call and its tool result, once', ({ resolution, details, expected }) => {
    const resolved = resolveQuestionBlock(pendingQuestion('q1'), resolution, { now: 5, ...details });
    const history = [user('plan it'), message('assistant', [{ type: 'text', text: 'Let me ask.' }, resolved])];
    if (resolution === 'chat') history.push(user('Cheap, with wifi'));
    const messages = toPromptMessages(history);
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Let me ask.' }, { type: 'tool-call', toolCallId: 'q1', toolName: 'question', input: { questions: QUESTIONS } }],
    });
    expect(messages[2]).toEqual({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'q1', toolName: 'question', output: { type: 'text', value: expected } }] });
    if (resolution === 'chat') expect(messages[3]).toEqual({ role: 'user', content: 'Cheap, with wifi' });
    expect(messages).toHaveLength(resolution === 'chat' ? 4 : 3);
    checkPairing(messages);
  });

  it('sends the refused calls after a resolved question with their error results, in call order', () => {
    const resolved = resolveQuestionBlock(pendingQuestion('q1'), 'dismissed', { now: 1 });
    const history = [
      user('x'),
      message('assistant', [resolved, { type: 'tool_call', toolCallId: 't9', toolName: 'get_current_time', args: {}, status: 'error', result: 'Not run' }]),
    ];
    const messages = toPromptMessages(history);
    const tool = messages[2];
    expect(tool?.role === 'tool' && tool.content.map((part) => (part.type === 'tool-result' ? [part.toolCallId, part.output.type] : []))).toEqual([
      ['q1', 'text'],
      ['t9', 'error-text'],
    ]);
    checkPairing(messages);
  });

  it('splits a message that holds several steps so each result follows its own call', () => {
    const history = [
      user('go'),
      message('assistant', [
        { type: 'text', text: 'Step one.' },
        { type: 'tool_call', toolCallId: 'a', toolName: 'get_current_time', args: {}, status: 'success', result: '1' },
        { type: 'text', text: 'Step two.' },
        { type: 'tool_call', toolCallId: 'b', toolName: 'get_current_time', args: {}, status: 'success', result: '2' },
        { type: 'text', text: 'Done.' },
      ]),
    ];
    const messages = toPromptMessages(history);
    expect(messages.map((entry) => entry.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(messages[5]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] });
    checkPairing(messages);
  });

  it('sends each tool call id once even when stored twice', () => {
    const block: Block = { type: 'tool_call', toolCallId: 'dup', toolName: 'get_current_time', args: {}, status: 'success', result: 'r' };
    const history = [user('a'), message('assistant', [block]), user('b'), message('assistant', [{ type: 'text', text: 'again' }, block])];
    const messages = toPromptMessages(history);
    expect(JSON.stringify(messages).match(/"toolCallId":"dup"/g)).toHaveLength(2); // one call, one result
    checkPairing(messages);
  });

  it.each(['interrupted', 'stopped', 'streaming', 'error'] as const)('sends the text an %s assistant message has', (status) => {
    const history = [user('tell me'), message('assistant', [{ type: 'text', text: 'Once upon a' }], status)];
    expect(toPromptMessages(history).at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Once upon a' }] });
  });

  it('skips a user message with no text', () => {
    expect(toPromptMessages([message('user', [{ type: 'text', text: '  ' }]), user('real')])).toEqual([{ role: 'user', content: 'real' }]);
  });
});

describe('files sent with a user message', () => {
  const bytes = new Uint8Array([137, 80, 78, 71]);
  const withFiles = (text: string): Message => ({
    ...user(text),
    attachments: [
      { id: 'img', name: 'shot.png', mimeType: 'image/png', size: 4, kind: 'image' },
      { id: 'txt', name: 'main.ts', mimeType: 'text/x-typescript', size: 13, kind: 'text' },
    ],
  });
  const contents = new Map([
    ['img', { kind: 'image' as const, mediaType: 'image/png', bytes }],
    ['txt', { kind: 'text' as const, text: 'const a = 1;\n' }],
  ]);

  it('follows the text with an image file part and the text file under its name, in the order attached', () => {
    expect(toPromptMessages([withFiles('Review this')], contents)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Review this' },
          { type: 'file', mediaType: 'image/png', data: bytes, filename: 'shot.png', attachment: { name: 'shot.png', mimeType: 'image/png', bytes: 4 } },
          { type: 'text', text: '<file name="main.ts" type="text/x-typescript">\nconst a = 1;\n\n</file>', attachment: { name: 'main.ts', mimeType: 'text/x-typescript', bytes: 13 } },
        ],
      },
    ]);
  });

  it('sends files alone when there is no text, and names a file no longer stored', () => {
    expect(toPromptMessages([withFiles('')], new Map([['txt', contents.get('txt')!]]))).toEqual([
      {
        role: 'user',
        content: [
          // Which file a part gives goes with it (the scripted model's {{attachments}} reads it); no provider sends it.
          { type: 'text', text: '<file name="shot.png">[This file is no longer stored, so its content cannot be given.]</file>', attachment: { name: 'shot.png', mimeType: 'image/png' } },
          { type: 'text', text: '<file name="main.ts" type="text/x-typescript">\nconst a = 1;\n\n</file>', attachment: { name: 'main.ts', mimeType: 'text/x-typescript', bytes: 13 } },
        ],
      },
    ]);
  });

  it('tells the model of a file still syncing from another device that it has not arrived, not that it is gone', () => {
    const [mapped] = toPromptMessages([withFiles('')], new Map<string, AttachmentContent>([['img', { kind: 'syncing', said: '[This file has not reached this device yet (it is still syncing from another device), so its content cannot be given.]' }], ['txt', contents.get('txt')!]]));
    expect(mapped?.content).toEqual([
      { type: 'text', text: '<file name="shot.png">[This file has not reached this device yet (it is still syncing from another device), so its content cannot be given.]</file>', attachment: { name: 'shot.png', mimeType: 'image/png', syncing: true } },
      { type: 'text', text: '<file name="main.ts" type="text/x-typescript">\nconst a = 1;\n\n</file>', attachment: { name: 'main.ts', mimeType: 'text/x-typescript', bytes: 13 } },
    ]);
  });

  it('gives the model a name whose bidi controls are shown as code points, as the user sees it', () => {
    const disguised: Message = { ...user(''), attachments: [{ id: 'img', name: 'cat\u202Egnp.exe', mimeType: 'image/png', size: 4, kind: 'image' }, { id: 'txt', name: 'report\u202Etxt.md', mimeType: 'text/markdown', size: 13, kind: 'text' }] };
    const [mapped] = toPromptMessages([disguised], contents);
    expect(mapped?.content).toEqual([
      { type: 'file', mediaType: 'image/png', data: bytes, filename: 'cat⟨U+202E⟩gnp.exe', attachment: { name: 'cat⟨U+202E⟩gnp.exe', mimeType: 'image/png', bytes: 4 } },
      { type: 'text', text: '<file name="report⟨U+202E⟩txt.md" type="text/markdown">\nconst a = 1;\n\n</file>', attachment: { name: 'report⟨U+202E⟩txt.md', mimeType: 'text/markdown', bytes: 13 } },
    ]);
  });

  it('keeps a message without files as plain text, as before', () => {
    expect(toPromptMessages([user('Hello')], contents)).toEqual([{ role: 'user', content: 'Hello' }]);
  });
});
