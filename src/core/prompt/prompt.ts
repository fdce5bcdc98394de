import type { Conversation, Profile } from '../../schema/records';
import { toPromptMessages } from './history';
import type { Model, ModelPart, ModelRequest, Prompt, PromptMessage, PromptRequest, Provider, Sampling } from '../run/model';

/** How a cut reply is continued by a provider that cannot carry on from a trailing assistant message. */
export const CONTINUE_INSTRUCTION =
  'Your previous reply was cut off. Continue it exactly where it stopped, without repeating anything you already wrote.';

/** What a profile gives every request: its instructions (unless the conversation has its own) and its sampling. */
type PromptProfile = Pick<Profile, 'instructions' | 'temperature' | 'maxOutputTokens'>;

/**
 * The system message a request carries: Parley's own prompt, then the user's instructions — the conversation's own
 * ("Instructions for this conversation") in place of its profile's. Undefined when there is neither.
 */
export function systemFor(base: string | undefined, profile: Pick<Profile, 'instructions'>, conversation: Pick<Conversation, 'instructions'>): string | undefined {
  const own = conversation.instructions?.trim() || profile.instructions?.trim();
  return [base, own].filter((part): part is string => !!part).join('\n\n') || undefined;
}

/** The profile's sampling settings that are set; absent ones are left to the provider. */
export function samplingOf(profile: Pick<Profile, 'temperature' | 'maxOutputTokens'>): Sampling {
  return {
    ...(profile.temperature !== undefined ? { temperature: profile.temperature } : {}),
    ...(profile.maxOutputTokens !== undefined ? { maxOutputTokens: profile.maxOutputTokens } : {}),
  };
}

/**
 * `{system, messages}` for one model request: the system prompt, and the history in each block's history form (see
 * `toPromptMessages`). On a continuation the history ends with the partial reply, whose trailing whitespace is trimmed
 * (Anthropic refuses a final assistant text that ends in whitespace); a reply with nothing left is dropped.
 */
export function buildPrompt(request: Pick<ModelRequest, 'history' | 'attachments' | 'continuation'>, system: string | undefined): Prompt {
  const messages = toPromptMessages(request.history, request.attachments);
  const last = messages.at(-1);
  if (request.continuation !== undefined && last?.role === 'assistant') {
    const content = [...last.content];
    const tail = content.at(-1);
    if (tail?.type === 'text') {
      const trimmed = tail.text.trimEnd();
      if (trimmed === '') content.pop();
      else content[content.length - 1] = { ...tail, text: trimmed };
    }
    messages.splice(-1, 1, ...(content.length === 0 ? [] : [{ ...last, content }]));
  }
  return system ? { system, messages } : { messages };
}

/**
 * The prompt's messages for a provider that does not carry on from a trailing assistant message (Chat Completions
 * servers, the in-browser engine): on a continuation, a one-off instruction asks the model to go on where it stopped.
 */
export function instructedMessages(request: Pick<PromptRequest, 'prompt' | 'continuation'>): PromptMessage[] {
  const { messages } = request.prompt;
  if (request.continuation === undefined || messages.at(-1)?.role !== 'assistant') return messages;
  return [...messages, { role: 'user', content: CONTINUE_INSTRUCTION }];
}

/**
 * The loop's Model for a provider: each step's prompt is built here, once, from the stored conversation — Parley's
 * prompt (`system`), the instructions and sampling of `profile`, the history — and the provider only adapts it.
 */
export function promptedModel(provider: Provider, options: { system?: string | undefined; profile?: PromptProfile | undefined } = {}): Model {
  const profile = options.profile ?? {};
  return {
    streamStep(request: ModelRequest): AsyncIterable<ModelPart> {
      return provider.streamPrompt({
        prompt: buildPrompt(request, systemFor(options.system, profile, request.conversation)),
        tools: request.tools,
        sampling: samplingOf(profile),
        ...(request.continuation ? { continuation: { text: request.continuation.text } } : {}),
        completedSteps: request.conversation.completedSteps,
        signal: request.signal,
      });
    },
  };
}
