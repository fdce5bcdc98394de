import type { ChatCompletionMessage, ChatCompletionTool } from '@wllama/wllama/esm/index.js';
import { ModelError, type ModelPart, type PromptMessage, type PromptRequest, type Provider, type ToolSpec } from '../../../core/run/model';
import { instructedMessages } from '../../../core/prompt/prompt';
import type { Profile, Usage } from '../../../schema/records';
import { contextError, contextOverflow, toolsLeftOutNote, toolsLeftOutNotice } from './context-fit';
import { holdEngine, loadEngine, unloadEngineIfIdle } from './engine';
import { LocalModelStoreError, recordSpeed } from './model-store';
import { createToolCallParser } from './tool-call-parser';
import { toolCallGrammar } from './tool-grammar';

const MAX_REPLY_TOKENS = 1024;

/**
 * A model that runs on this device: the profile's `model` is the stored model's source (its URL, or `file:<name>`).
 * Each step renders the model's own chat template with the tools, streams the raw text, and parses its Qwen/Hermes
 * `<tool_call>` blocks into tool calls. With "ask first" on, the first step of a turn is sampled under a grammar that
 * allows only a valid call of a tool that asks the user (`ToolSpec.asksUser`: the question tool). The engine refuses a
 * custom grammar together with its own tool handling, so in that step the tools are described in the system message,
 * as the model's template would.
 */
export function createInBrowserModel(profile: Profile): Provider {
  const source = profile.model.trim();
  let callCount = 0;
  return {
    async *streamPrompt(request: PromptRequest): AsyncIterable<ModelPart> {
      request.signal.throwIfAborted();
      const engine = await engineFor(source);
      request.signal.throwIfAborted();
      const askingTools = request.tools.filter((tool) => tool.asksUser);
      const constrained = engine.constrainToolCalls && askingTools.length > 0 && request.prompt.messages.at(-1)?.role === 'user' && !request.continuation;
      const parser = createToolCallParser({ newId: () => `local_${Date.now().toString(36)}_${callCount++}` });
      let usage: Usage | undefined;
      // Tried with the tools first; refused as too long for the context (before any text), tried again without them.
      let withTools = request.tools.length > 0;
      const release = holdEngine();
      try {
        for (;;) {
          const grammar = withTools && constrained;
          const toolsLeftOut = !withTools && request.tools.length > 0;
          const system = toolsLeftOut ? [request.prompt.system, toolsLeftOutNote(engine.contextTokens)].filter(Boolean).join('\n\n') : request.prompt.system;
          const messages = toEngineMessages(request, system || undefined, grammar ? request.tools : []);
          let streamed = false;
          try {
            const stream = await engine.wllama.createChatCompletion({
              messages,
              stream: true,
              abortSignal: request.signal,
              max_tokens: Math.min(request.sampling.maxOutputTokens ?? MAX_REPLY_TOKENS, MAX_REPLY_TOKENS),
              temperature: request.sampling.temperature ?? 0.7,
              top_p: 0.8,
              top_k: 20,
              ...(grammar ? { grammar: toolCallGrammar(askingTools) } : withTools ? { tools: request.tools.map(toEngineTool), tool_choice: 'auto' as const } : {}),
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
        if (overflow) throw contextError(overflow, engine.contextTokens, request.prompt.messages.length, error);
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

/** The engine with the stored model loaded; a model that is not stored (or not whole) is a ModelError 'config'. */
async function engineFor(source: string) {
  try {
    return await loadEngine(source);
  } catch (error) {
    if (error instanceof LocalModelStoreError) throw new ModelError('config', error.message, { cause: error });
    throw error;
  }
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

/**
 * The prompt → the engine's OpenAI-style messages (tool calls with JSON-text arguments, results as `tool` messages); a
 * cut reply is continued on instruction (see instructedMessages).
 */
function toEngineMessages(request: Pick<PromptRequest, 'prompt' | 'continuation'>, system: string | undefined, describedTools: readonly ToolSpec[]): ChatCompletionMessage[] {
  const messages: ChatCompletionMessage[] = [];
  const systemText = [system, describedTools.length > 0 ? hermesToolsText(describedTools) : undefined].filter(Boolean).join('\n\n');
  if (systemText) messages.push({ role: 'system', content: systemText });
  for (const message of instructedMessages(request)) messages.push(...fromPromptMessage(message));
  return messages;
}

function fromPromptMessage(message: PromptMessage): ChatCompletionMessage[] {
  if (message.role === 'user') {
    const content = typeof message.content === 'string' ? message.content : message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    return [{ role: 'user', content }];
  }
  if (message.role === 'assistant') {
    const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    const calls = message.content.flatMap((part) =>
      part.type === 'tool-call' ? [{ id: part.toolCallId, type: 'function' as const, function: { name: part.toolName, arguments: JSON.stringify(part.input ?? {}) } }] : [],
    );
    return [{ role: 'assistant', content: text, ...(calls.length > 0 ? { tool_calls: calls } : {}) }];
  }
  return message.content.map(({ toolCallId, output }) => ({ role: 'tool' as const, tool_call_id: toolCallId, content: output.type === 'error-text' ? `Error: ${output.value}` : output.value }));
}

function toEngineTool(spec: ToolSpec): ChatCompletionTool {
  return { type: 'function', function: { name: spec.name, description: spec.description, parameters: spec.inputSchema as unknown as NonNullable<ChatCompletionTool['function']['parameters']> } };
}

/** The tools as Qwen's own template writes them, for the one step where the engine's tool handling is not used. */
function hermesToolsText(tools: readonly ToolSpec[]): string {
  const lines = tools.map((tool) => JSON.stringify({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }));
  return `# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n${lines.join('\n')}\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>`;
}
