import { ModelError, type ModelPart } from '../../../core/run/model';

/**
 * Fitting a request into the model's context. The engine has no tokenizer call, so a request is tried as it is; when
 * llama.cpp refuses it as too long (before generating anything), the tool definitions are left out and it is tried
 * once more; when even that does not fit, the user is told what to do.
 */

/** What llama.cpp said about a request too long for the context: its token counts when it gave them. */
interface ContextOverflow {
  promptTokens?: number;
  contextTokens?: number;
}

/**
 * The overflow in an engine error, or undefined for any other failure. llama.cpp words it "request (5000 tokens) exceeds
 * the available context size (4096 tokens)" (type `exceed_context_size_error`), or reports a full KV cache mid-reply.
 */
export function contextOverflow(error: unknown): ContextOverflow | undefined {
  const detail = error instanceof Error ? error.message : String(error);
  const type = (error as { type?: unknown } | null)?.type;
  if (!/context|kv_cache_full/i.test(detail) && type !== 'kv_cache_full' && type !== 'exceed_context_size_error') return undefined;
  const overflow: ContextOverflow = {};
  const counts = /\((\d+) tokens\) exceeds the available context size \((\d+) tokens\)/i.exec(detail);
  if (counts) {
    overflow.promptTokens = Number(counts[1]);
    overflow.contextTokens = Number(counts[2]);
  }
  return overflow;
}

/** Told to the model when its tools were left out, so it neither calls nor invents them. */
export function toolsLeftOutNote(contextTokens: number): string {
  return `Note: no tools are available in this conversation. Their definitions do not fit in this model's context of ${contextTokens} tokens, so answer in plain text.`;
}

/** Told to the user, on the reply, for the same reason (worded by the UI: `message.notice.tools_left_out`). */
export function toolsLeftOutNotice(contextTokens: number): ModelPart {
  return { type: 'notice', notice: { key: 'tools_left_out', params: { tokens: contextTokens } } };
}

/**
 * The error for a request that does not fit even without tools. With one message there is nothing to start afresh
 * from: the model's context is too small for Parley (code `context_too_small`, worded by the UI: choose a larger model).
 */
export function contextError(overflow: ContextOverflow, contextTokens: number, messageCount: number, cause: unknown): ModelError {
  const context = overflow.contextTokens ?? contextTokens;
  const needed = overflow.promptTokens !== undefined ? ` (this request needs ${overflow.promptTokens})` : '';
  if (messageCount <= 1) {
    return new ModelError(
      'context_too_small',
      `This model has only ${context} tokens of context, too few for the system prompt and this message${needed}. Choose a model with a larger context (or write a shorter message).`,
      { cause },
    );
  }
  return new ModelError('bad_request', `This conversation no longer fits in the in-browser model's memory (${context} tokens of context${needed}). Start a new conversation to go on with this model.`, {
    cause,
    detail: { key: 'in_browser_context_full', params: { tokens: context } },
  });
}
