import type { ChatCompletionMessage, ChatCompletionTool } from '@wllama/wllama/esm/index.js';
import type { ModelMessage } from 'ai';
import { ModelError, type Model, type ModelPart, type ModelRequest, type ToolSpec } from '../../../core/model';
import type { Profile, Usage } from '../../../schema/records';
import { QUESTION_TOOL_NAME } from '../../../core/question-tool';
import { systemFor } from '../instructions';
import { toModelMessages } from '../history-mapping';
import { contextError, contextOverflow, toolsLeftOutNote, toolsLeftOutNotice } from './context-fit';
import { holdEngine, loadEngine, unloadEngineIfIdle } from './engine';
import { LocalModelStoreError, recordSpeed } from './model-store';
import { createToolCallParser } from './tool-call-parser';
import { toolCallGrammar } from './tool-grammar';

const MAX_REPLY_TOKENS = 1024;
const CONTINUE_INSTRUCTION = 'Your previous reply was cut off. Continue it exactly where it stopped, without repeating anything you already wrote.';

/**
 * A model that runs on this device: the profile's `model` is the stored model's source (its URL, or `file:<name>`).
 * Each step renders the model's own chat template with the tools, streams the raw text, and parses its Qwen/Hermes
 * `<tool_call>` blocks into tool calls. With "ask first" on, the first step of a turn is sampled under a grammar that
 * allows only a valid `question` call (the engine refuses a custom grammar together with its own tool handling, so in
 * that step the tools are described in the system message, as the model's template would).
 */
export function createInBrowserModel(profile: Profile, options: { system?: string } = {}): Model {
  const source = profile.model.trim();
  let callCount = 0;
  return {
    async *streamStep(request: ModelRequest): AsyncIterable<ModelPart> {
      request.signal.throwIfAborted();
      let engine;
      try {
        engine = await loadEngine(source);
      } catch (error) {
        if (error instanceof LocalModelStoreError) throw new ModelError('config', error.message, { cause: error });
        throw error;
      }
      request.signal.throwIfAborted();
      const questionTool = request.tools.filter((tool) => tool.name === QUESTION_TOOL_NAME);
      const constrained = engine.constrainToolCalls && questionTool.length > 0 && request.history.at(-1)?.role === 'user' && !request.continuation;
      const parser = createToolCallParser({ newId: () => `local_${Date.now().toString(36)}_${callCount++}` });
      let usage: Usage | undefined;
      // Tried with the tools first; refused as too long for the context (before any text), tried again without them.
      let withTools = request.tools.length > 0;
      const release = holdEngine();
      try {
        for (;;) {
          const grammar = withTools && constrained;
          const instructions = systemFor(options.system, profile, request.conversation);
          const toolsLeftOut = !withTools && request.tools.length > 0;
          const system = toolsLeftOut ? [instructions, toolsLeftOutNote(engine.contextTokens)].filter(Boolean).join('\n\n') : instructions;
          const messages = toEngineMessages(request, system || undefined, grammar ? request.tools : []);
          let streamed = false;
          try {
            const stream = await engine.wllama.createChatCompletion({
              messages,
              stream: true,
              abortSignal: request.signal,
              max_tokens: Math.min(profile.maxOutputTokens ?? MAX_REPLY_TOKENS, MAX_REPLY_TOKENS),
              temperature: profile.temperature ?? 0.7,
              top_p: 0.8,
              top_k: 20,
              ...(grammar ? { grammar: toolCallGrammar(questionTool) } : withTools ? { tools: request.tools.map(toEngineTool), tool_choice: 'auto' as const } : {}),
            });
            for await (const chunk of drainedOnExit(stream)) {
              request.signal.throwIfAborted();
              const text = chunk.choices[0]?.delta?.content;
              if (text) {
                // The user is told too, once the request without tools was taken (not when it failed anyway).
                if (!streamed && toolsLeftOut) yield toolsLeftOutNotice(engine.contextTokens);
                streamed = true;
                yield* parser.push(text);
              }
              // The stream carries no `usage`; its last chunk has llama.cpp's timings, which say the same and the speed.
              const timings = chunk.timings;
              if (timings) {
                usage = { inputTokens: timings.prompt_n + timings.cache_n, outputTokens: timings.predicted_n };
                if (timings.predicted_per_second > 0) usage.tokensPerSecond = Math.round(timings.predicted_per_second * 10) / 10;
              }
            }
            if (!streamed && toolsLeftOut) yield toolsLeftOutNotice(engine.contextTokens);
            break;
          } catch (error) {
            if (!request.signal.aborted && withTools && !streamed && contextOverflow(error)) {
              withTools = false;
              continue;
            }
            throw error;
          }
        }
      } catch (error) {
        release();
        if (request.signal.aborted) throw request.signal.reason;
        const overflow = contextOverflow(error);
        if (overflow) throw contextError(overflow, engine.contextTokens, request.history.length, error);
        // A failure inside the engine can leave its worker unusable: the next step loads it afresh (once no other reply
        // is generating on it).
        await unloadEngineIfIdle();
        const detail = error instanceof Error ? error.message : String(error);
        throw new ModelError('server', `The in-browser model failed: ${detail}`, { cause: error, detail: { key: 'in_browser_failed', params: { said: detail } } });
      } finally {
        release();
      }
      request.signal.throwIfAborted();
      yield* parser.end();
      if (usage?.tokensPerSecond !== undefined) await recordSpeed(source, usage.tokensPerSecond).catch(() => undefined);
      yield usage ? { type: 'finish', usage } : { type: 'finish' };
    },
  };
}

/**
 * Iterates the engine's stream; left early (a Stop), it keeps reading the rest in the background and swallows its end.
 * wllama queues each next chunk as a promise that its abort rejects; a loop that stopped reading left that rejection
 * unobserved, an uncaught "Operation aborted" in the page's console.
 */
async function* drainedOnExit<T>(stream: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = stream[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } catch (error) {
    finished = true;
    throw error;
  } finally {
    if (!finished) {
      void (async () => {
        while (!(await iterator.next()).done);
      })().catch(() => undefined);
    }
  }
}

/** Our history → the engine's OpenAI-style messages (tool calls with JSON-text arguments, results as `tool` messages). */
export function toEngineMessages(request: Pick<ModelRequest, 'history' | 'continuation' | 'attachments'>, system: string | undefined, describedTools: readonly ToolSpec[]): ChatCompletionMessage[] {
  const messages: ChatCompletionMessage[] = [];
  const systemText = [system, describedTools.length > 0 ? hermesToolsText(describedTools) : undefined].filter(Boolean).join('\n\n');
  if (systemText) messages.push({ role: 'system', content: systemText });
  for (const message of toModelMessages(request.history, { attachments: request.attachments })) messages.push(...fromModelMessage(message));
  if (request.continuation && messages.at(-1)?.role === 'assistant') messages.push({ role: 'user', content: CONTINUE_INSTRUCTION });
  return messages;
}

function fromModelMessage(message: ModelMessage): ChatCompletionMessage[] {
  if (message.role === 'system') return [{ role: 'system', content: message.content }];
  if (message.role === 'user') {
    const content = typeof message.content === 'string' ? message.content : message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    return [{ role: 'user', content }];
  }
  if (message.role === 'assistant') {
    if (typeof message.content === 'string') return [{ role: 'assistant', content: message.content }];
    const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    const calls = message.content.flatMap((part) =>
      part.type === 'tool-call' ? [{ id: part.toolCallId, type: 'function' as const, function: { name: part.toolName, arguments: JSON.stringify(part.input ?? {}) } }] : [],
    );
    return [{ role: 'assistant', content: text, ...(calls.length > 0 ? { tool_calls: calls } : {}) }];
  }
  return message.content.flatMap((part) => {
    if (part.type !== 'tool-result') return [];
    const output = part.output;
    const content = output.type === 'text' || output.type === 'error-text' ? output.value : JSON.stringify('value' in output ? output.value : output);
    return [{ role: 'tool' as const, tool_call_id: part.toolCallId, content: output.type === 'error-text' ? `Error: ${content}` : content }];
  });
}

function toEngineTool(spec: ToolSpec): ChatCompletionTool {
  return { type: 'function', function: { name: spec.name, description: spec.description, parameters: spec.inputSchema as unknown as NonNullable<ChatCompletionTool['function']['parameters']> } };
}

/** The tools as Qwen's own template writes them, for the one step where the engine's tool handling is not used. */
function hermesToolsText(tools: readonly ToolSpec[]): string {
  const lines = tools.map((tool) => JSON.stringify({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }));
  return `# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n${lines.join('\n')}\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>`;
}
