import { abortableSleep } from '../runs/abortable-sleep';
import { ModelError, type ModelPart, type PromptMessage, type PromptRequest, type Provider, type ProviderFactory } from '../../core/run/model';
import type { ParsedScript, ScriptStep } from '../../schema/script';
import { builtInDemo } from './demo-script';

/**
 * The scripted kind's code: the script in `options.script` (a bad one is a ModelError 'config' naming the problem). The
 * Built-in demo runs as it is declared; a script the user wrote is parsed first, its parser (and the zod schemas it
 * uses) loaded then: a first reply from the demo loads neither.
 */
export const createScriptedProvider: ProviderFactory = async (_profile, options) => {
  const text = options.script ?? '';
  const demo = await builtInDemo(text);
  if (demo) return createScriptedModel(demo);
  const parsed = (await import('../../schema/script')).parseScript(text);
  if (!parsed.ok) throw new ModelError('config', `The scripted model cannot run (fix it in Settings → Script): ${parsed.error}`, { detail: { key: 'script_invalid', params: { said: parsed.error } } });
  return createScriptedModel(parsed.script);
};

/** What the scripted model says once a conversation has used up every step of its script. */
export const SCRIPT_ENDED_TEXT =
  'This script has ended, so I have nothing more to say. You can write a new script in Settings → Script, or connect a real model in Settings.';

type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

interface ScriptedModelOptions {
  /** Waits between chunks; it must reject with `signal.reason` once the signal aborts. Tests inject an instant one. */
  sleep?: Sleep;
}

/**
 * A deterministic, offline model: the reply to a conversation's n-th call (`completedSteps`) is step n of the script,
 * streamed in chunks at the script's pace, then its tool calls (ids `call_<step>_<i>`), then `finish`. Its templates
 * show what it received (see TemplateValues). An aborted `request.signal` stops the stream by throwing the signal's reason.
 */
export function createScriptedModel(script: ParsedScript, options: ScriptedModelOptions = {}): Provider {
  const sleep = options.sleep ?? abortableSleep;
  return {
    async *streamPrompt(request: PromptRequest): AsyncIterable<ModelPart> {
      const { signal } = request;
      signal.throwIfAborted();
      const stepIndex = request.completedSteps;
      const step: ScriptStep = script.steps[stepIndex] ?? { text: SCRIPT_ENDED_TEXT };
      const values = { ...templateValues(request.prompt.messages), systemPrompt: request.prompt.system ?? '', attachments: attachmentsText(request.prompt.messages) };

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
 * What the model received: the last user message's text, the reply before it (`''` when none: the text of the last
 * assistant turn before that message), and the last tool result.
 */
function templateValues(messages: readonly PromptMessage[]): Omit<TemplateValues, 'systemPrompt' | 'attachments'> {
  let lastUserMessage = '';
  let lastAssistantMessage = '';
  let replyBefore = '';
  let lastToolResult = '';
  for (const message of messages) {
    if (message.role === 'user') {
      lastUserMessage = typeof message.content === 'string' ? message.content : message.content.flatMap((part) => (part.type === 'text' && !part.attachment ? [part.text] : [])).join('\n\n');
      lastAssistantMessage = replyBefore;
    } else if (message.role === 'assistant') {
      replyBefore = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    } else {
      for (const result of message.content) lastToolResult = result.output.value;
    }
  }
  return { lastUserMessage, lastAssistantMessage, lastToolResult };
}

/**
 * `{{attachments}}`: the files of the last user message, each as `name (type, n bytes)` with n counted from the content
 * this step was given (read back from storage), `name (not stored)` when it was not, `name (not here yet)` when it was
 * still syncing from another device; `none` without files.
 */
function attachmentsText(messages: readonly PromptMessage[]): string {
  const last = messages.findLast((message) => message.role === 'user');
  const files = last && typeof last.content !== 'string' ? last.content.flatMap((part) => (part.attachment ? [part.attachment] : [])) : [];
  if (files.length === 0) return 'none';
  const given = (file: (typeof files)[number]) => (file.syncing ? `${file.name} (not here yet)` : file.bytes === undefined ? `${file.name} (not stored)` : `${file.name} (${file.mimeType}, ${file.bytes} bytes)`);
  return files.map(given).join(', ');
}
