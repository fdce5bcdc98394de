import type { Model, ModelPart, ModelRequest } from '../../core/model';
import type { Message, Profile } from '../../schema/records';
import type { ParsedScript, ScriptStep } from '../../schema/script';
import { systemFor } from './instructions';
import { visibleFileName } from '../../schema/file-name';

export { parseScript } from '../../schema/script';

/** What the scripted model says once a conversation has used up every step of its script. */
export const SCRIPT_ENDED_TEXT =
  'This script has ended, so I have nothing more to say. You can write a new script in Settings → Script, or connect a real model in Settings.';

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface ScriptedModelOptions {
  /** Waits between chunks; it must reject with `signal.reason` once the signal aborts. Tests inject an instant one. */
  sleep?: Sleep;
  /** Parley's own system prompt, which `{{systemPrompt}}` shows with the instructions after it. */
  system?: string;
  /** The profile's instructions, which a conversation's own take the place of (see systemFor). */
  profile?: Pick<Profile, 'instructions'>;
}

/**
 * A deterministic, offline model: the reply to a conversation's n-th call (`conversation.completedSteps`) is
 * step n of the script, streamed in chunks at the script's pace, then its tool calls (ids `call_<step>_<i>`),
 * then `finish`. An aborted `request.signal` stops the stream by throwing the signal's reason.
 */
export function createScriptedModel(script: ParsedScript, options: ScriptedModelOptions = {}): Model {
  const sleep = options.sleep ?? abortableSleep;
  return {
    async *streamStep(request: ModelRequest): AsyncIterable<ModelPart> {
      const { signal } = request;
      signal.throwIfAborted();
      const stepIndex = request.conversation.completedSteps;
      const step: ScriptStep = script.steps[stepIndex] ?? { text: SCRIPT_ENDED_TEXT };
      const values = { ...templateValues(request.history), systemPrompt: systemFor(options.system, options.profile ?? {}, request.conversation) ?? '', attachments: attachmentsText(request) };

      const text = step.text === undefined ? '' : renderTemplate(step.text, values);
      const continued = request.continuation?.text ?? '';
      const alreadySent = continued !== '' && text.startsWith(continued);
      // Once text had started, the reasoning before it was complete: a continuation does not repeat it.
      if (step.reasoning !== undefined && continued === '') {
        const reasoning = renderTemplate(step.reasoning, values);
        for await (const chunk of paced(reasoning, script, signal, sleep)) yield { type: 'reasoning-delta', text: chunk };
      }
      const remainder = alreadySent ? text.slice(continued.length) : text;
      for await (const chunk of paced(remainder, script, signal, sleep)) yield { type: 'text-delta', text: chunk };

      for (const [index, call] of (step.toolCalls ?? []).entries()) {
        signal.throwIfAborted();
        // A copy: the script is shared by every call and the loop may keep or change what it receives.
        yield { type: 'tool-call', toolCallId: `call_${stepIndex}_${index}`, toolName: call.name, input: structuredClone(call.args) };
      }
      signal.throwIfAborted();
      yield step.usage === undefined ? { type: 'finish' } : { type: 'finish', usage: { ...step.usage } };
    },
  };
}

/** Splits `text` into chunks of `chunkSize` code points (never halving an emoji), waiting `chunkDelayMs` between them. */
async function* paced(
  text: string,
  script: ParsedScript,
  signal: AbortSignal,
  sleep: Sleep,
): AsyncIterable<string> {
  const characters = Array.from(text);
  for (let start = 0; start < characters.length; start += script.chunkSize) {
    if (start > 0) await sleep(script.chunkDelayMs, signal);
    // An injected sleep may ignore the signal; checking here keeps Stop prompt regardless.
    signal.throwIfAborted();
    yield characters.slice(start, start + script.chunkSize).join('');
  }
}

interface TemplateValues {
  lastUserMessage: string;
  /** The text of the reply the last user message answered: the version on screen when it was sent. */
  lastAssistantMessage: string;
  lastToolResult: string;
  /** The system message the model received: Parley's prompt, then the instructions (the conversation's, else the profile's). */
  systemPrompt: string;
  /** The files of the last user message as this step received them (see attachmentsText). */
  attachments: string;
}

const PLACEHOLDER = /\{\{\s*(lastUserMessage|lastAssistantMessage|lastToolResult|systemPrompt|attachments)\s*\}\}/g;

/** Replaces the known placeholders; anything else in braces is left as written. */
function renderTemplate(template: string, values: TemplateValues): string {
  // A replacer function, so `$&` and friends in the user's text are not read as replacement patterns.
  return template.replace(PLACEHOLDER, (_match, name: keyof TemplateValues) => values[name]);
}

/**
 * What the model "received": the last user message's text, the reply before it (`''` when none), and the last tool
 * result, whichever block held it.
 */
function templateValues(history: readonly Message[]): Omit<TemplateValues, 'systemPrompt' | 'attachments'> {
  let lastUserMessage = '';
  let lastAssistantMessage = '';
  let replyBefore = '';
  let lastToolResult = '';
  for (const message of history) {
    const text = message.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : []));
    if (message.role === 'user') {
      lastUserMessage = text.join('\n');
      lastAssistantMessage = replyBefore;
    } else {
      replyBefore = text.join('');
    }
    for (const block of message.blocks) {
      if (block.type === 'tool_call' && block.result !== undefined) lastToolResult = block.result;
      if (block.type === 'question_request' && block.status !== 'pending' && block.toolResult !== undefined) {
        lastToolResult = block.toolResult;
      }
    }
  }
  return { lastUserMessage, lastAssistantMessage, lastToolResult };
}

/**
 * `{{attachments}}`: the files of the last user message, each as `name (type, n bytes)` with n counted from the content
 * this step was given (read back from storage), `name (not stored)` when it was not; `none` without files.
 */
function attachmentsText(request: ModelRequest): string {
  const last = request.history.findLast((message) => message.role === 'user');
  const files = last?.attachments ?? [];
  if (files.length === 0) return 'none';
  return files
    .map((file) => {
      const content = request.attachments?.get(file.id);
      // The name as a real model gets it (history-mapping.ts): its bidi controls shown as code points.
      const name = visibleFileName(file.name);
      if (!content) return `${name} (not stored)`;
      const bytes = content.kind === 'image' ? content.bytes.length : new TextEncoder().encode(content.text).length;
      return `${name} (${file.mimeType}, ${bytes} bytes)`;
    })
    .join(', ');
}

/** A timer that rejects with the signal's reason the moment the signal aborts. */
function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
