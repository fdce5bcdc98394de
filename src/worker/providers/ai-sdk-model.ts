import { jsonSchema, streamText, tool, type JSONSchema7, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { ModelPart, PromptMessage, PromptRequest, Provider, ToolSpec } from '../../core/run/model';
import type { Usage } from '../../schema/records';
import { sendableBody } from '../../core/request-body';
import { abortReason, createRepeatFilter } from './continuation';
import { cutStreamError, isAbortError, toModelError, type ProviderErrorContext } from './errors';

/**
 * The fetch the providers get. The SDK adds a `user-agent` header to every request; a browser that lets a page set it
 * (Firefox) then asks the server's CORS preflight about it, and a server that allows only the usual headers refuses.
 * It carries nothing a provider needs, so it is dropped.
 */
export function withoutUserAgent(base?: typeof fetch): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.delete('user-agent');
    // A long body (a model request carrying images) goes as a Blob (request-body.ts).
    return (base ?? globalThis.fetch)(input, { ...init, headers, body: sendableBody(init?.body, headers) });
  };
}

interface AiSdkModelOptions {
  /** Where errors are worded from (the base URL, the model) and what they must never contain (the key). */
  errorContext: ProviderErrorContext;
}

/**
 * Wraps an AI SDK language model as a Provider: one `streamText` call per step over the prompt as the SDK's messages
 * (a cut reply is continued by sending the partial reply last: the model carries on from it), no SDK retries (the
 * loop backs off), tools declared without `execute` so a tool call ends the step. Yields text and reasoning deltas, every tool call
 * (an invalid one too, with its raw input, so our validator can tell the model what to fix) and a final `finish`.
 * Failures throw ModelError; a Stop (abort) throws the abort reason unchanged.
 */
export function createAiSdkModel(languageModel: LanguageModel, options: AiSdkModelOptions): Provider {
  return {
    async *streamPrompt(request: PromptRequest): AsyncIterable<ModelPart> {
      const context: ProviderErrorContext = { ...options.errorContext };
      const fail = async (error: unknown): Promise<never> => {
        throw isAbortError(error) || request.signal.aborted ? abortReason(request.signal, error) : await toModelError(error, context);
      };
      request.signal.throwIfAborted();
      let finished = false;
      try {
        const result = streamText({
          model: languageModel,
          ...(request.prompt.system ? { instructions: request.prompt.system } : {}),
          ...request.sampling,
          messages: request.prompt.messages.map(toModelMessage),
          tools: toToolSet(request.tools),
          maxRetries: 0,
          abortSignal: request.signal,
          // The default handler logs to the console; every error is classified and rethrown below instead.
          onError: () => {},
        });
        // A model asked to continue may start over: an exact repeat of what is stored is dropped, nothing else.
        const repeat = createRepeatFilter(request.continuation?.text ?? '');
        for await (const part of result.fullStream) {
          switch (part.type) {
            case 'text-delta': {
              context.midStream = true;
              const text = repeat.accept(part.text);
              if (text !== '') yield { type: 'text-delta', text };
              break;
            }
            case 'reasoning-delta':
              context.midStream = true;
              if (part.text !== '') yield { type: 'reasoning-delta', text: part.text };
              break;
            case 'tool-input-start': {
              context.midStream = true;
              const held = repeat.release();
              if (held !== '') yield { type: 'text-delta', text: held };
              break;
            }
            case 'tool-call':
              context.midStream = true;
              // For an invalid call the SDK gives the parsed JSON if it parses, the raw text if not.
              yield { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
              break;
            case 'finish': {
              // Anthropic's stream ended without message_stop: the answer was cut, whatever arrived before it.
              if (part.finishReason === 'interrupted') throw cutStreamError(part, context);
              const held = repeat.release();
              if (held !== '') yield { type: 'text-delta', text: held };
              finished = true;
              yield { type: 'finish', usage: toUsage(part.totalUsage) };
              break;
            }
            case 'error':
              await fail(part.error);
              break;
            case 'abort':
              throw abortReason(request.signal);
            default:
              // tool-error (our validator words that), step boundaries, sources, raw chunks: nothing to pass on.
              break;
          }
        }
      } catch (error) {
        await fail(error);
      }
      if (!finished) await fail(cutStreamError(undefined, context));
    },
  };
}

function toToolSet(specs: readonly ToolSpec[]): ToolSet {
  const tools: ToolSet = {};
  for (const spec of specs) {
    // No `execute`: the SDK ends the step with the call, and the loop runs (or pauses on) it.
    tools[spec.name] = tool({ description: spec.description, inputSchema: jsonSchema(spec.inputSchema as JSONSchema7) });
  }
  return tools;
}

function toUsage(usage: { inputTokens: number | undefined; outputTokens: number | undefined } | undefined): Usage {
  const result: Usage = {};
  if (usage?.inputTokens !== undefined) result.inputTokens = usage.inputTokens;
  if (usage?.outputTokens !== undefined) result.outputTokens = usage.outputTokens;
  return result;
}

/** A prompt message as the SDK's: the same shape, without what says which stored file a part gives. */
function toModelMessage(message: PromptMessage): ModelMessage {
  if (message.role !== 'user' || typeof message.content === 'string') return message;
  return { role: 'user', content: message.content.map(({ attachment: _attachment, ...part }) => part) };
}
