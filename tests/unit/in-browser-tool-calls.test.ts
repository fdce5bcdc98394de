import { describe, expect, it } from 'vitest';
import { createToolCallParser, parseToolCallText } from '../../src/worker/providers/in-browser/tool-call-parser';
import { parseQuestionInput } from '../../src/core/requests/question-tool';

function ids() {
  let next = 0;
  return () => `local_${next++}`;
}

const question = { questions: [{ header: 'Size', question: 'Which size?', options: [{ label: 'S' }, { label: 'L' }] }] };

describe('Qwen/Hermes tool-call parsing', () => {
  it('turns a valid call into a tool-call part with parsed input', () => {
    const parts = parseToolCallText(`<tool_call>\n${JSON.stringify({ name: 'question', arguments: question })}\n</tool_call>`, ids());
    expect(parts).toEqual([{ type: 'tool-call', toolCallId: 'local_0', toolName: 'question', input: question }]);
    expect(parseQuestionInput((parts[0] as { input: unknown }).input).ok).toBe(true);
  });

  it('keeps the text around a call, in order', () => {
    const parts = parseToolCallText('Let me ask. <tool_call>{"name": "echo", "arguments": {"message": "hi"}}</tool_call> Done.', ids());
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Let me ask. ' },
      { type: 'tool-call', toolCallId: 'local_0', toolName: 'echo', input: { message: 'hi' } },
      { type: 'text-delta', text: ' Done.' },
    ]);
  });

  it('gives every call of a reply its own id', () => {
    const text = '<tool_call>{"name": "a", "arguments": {}}</tool_call>\n<tool_call>{"name": "b", "arguments": "{\\"x\\": 1}"}</tool_call>';
    const calls = parseToolCallText(text, ids()).filter((part) => part.type === 'tool-call');
    expect(calls).toEqual([
      { type: 'tool-call', toolCallId: 'local_0', toolName: 'a', input: {} },
      { type: 'tool-call', toolCallId: 'local_1', toolName: 'b', input: { x: 1 } },
    ]);
  });

  it('passes invalid JSON on as raw text, keeping the name when it can be read', () => {
    const [call] = parseToolCallText('<tool_call>{"name": "question", "arguments": {"questions": [oops]}}</tool_call>', ids());
    expect(call).toMatchObject({ type: 'tool-call', toolName: 'question' });
    expect(typeof (call as { input: unknown }).input).toBe('string');
    expect(parseQuestionInput((call as { input: unknown }).input)).toMatchObject({ ok: false });
  });

  it('treats a call cut off by the end of the reply as a call with its raw text', () => {
    const [text, call] = parseToolCallText('Asking <tool_call>{"name": "question", "arguments": {"questions": [{"header"', ids());
    expect(text).toEqual({ type: 'text-delta', text: 'Asking ' });
    expect(call).toMatchObject({ type: 'tool-call', toolName: 'question' });
    expect(parseQuestionInput((call as { input: unknown }).input)).toMatchObject({ ok: false });
  });

  it('accepts a complete call whose closing tag was cut (the engine stopped on it)', () => {
    const [call] = parseToolCallText('<tool_call>\n{"name": "echo", "arguments": {"message": "x"}}\n', ids());
    expect(call).toEqual({ type: 'tool-call', toolCallId: 'local_0', toolName: 'echo', input: { message: 'x' } });
  });

  it('names a call with no readable name "unknown" so the loop answers it with the list of tools', () => {
    const [call] = parseToolCallText('<tool_call>not json</tool_call>', ids());
    expect(call).toEqual({ type: 'tool-call', toolCallId: 'local_0', toolName: 'unknown', input: 'not json' });
  });

  it('holds back a tag split across chunks and streams text as it comes', () => {
    const parser = createToolCallParser({ newId: ids() });
    expect(parser.push('Hi <to')).toEqual([{ type: 'text-delta', text: 'Hi ' }]);
    expect(parser.push('ol_ca')).toEqual([]);
    expect(parser.push('ll>{"name": "a", "argu')).toEqual([]);
    expect(parser.push('ments": {}}</tool_')).toEqual([]);
    expect(parser.push('call> and <b>bold</b>')).toEqual([
      { type: 'tool-call', toolCallId: 'local_0', toolName: 'a', input: {} },
      { type: 'text-delta', text: ' and <b>bold</b>' },
    ]);
    expect(parser.push(' <')).toEqual([{ type: 'text-delta', text: ' ' }]);
    expect(parser.end()).toEqual([{ type: 'text-delta', text: '<' }]);
  });

  it('streams <think> as reasoning', () => {
    expect(parseToolCallText('<think>Hmm.</think>Answer', ids())).toEqual([
      { type: 'reasoning-delta', text: 'Hmm.' },
      { type: 'text-delta', text: 'Answer' },
    ]);
  });
});
