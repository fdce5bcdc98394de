import type { ParsedScript, Script } from '../../schema/script';
import { SCRIPT_PACE } from '../../schema/limits';

/*
 * The script a first-time user meets before connecting any model. It shows the whole loop: streaming
 * reasoning and text, a question form (single choice, multi-select, free-text "Other"), the answers
 * coming back as a tool result, and Markdown. It has to make sense whatever the user types first.
 */
const demoScript = {
  steps: [
    {
      reasoning:
        'The user wrote: "{{lastUserMessage}}". No real model is connected, so I follow the demo: plan a weekend. Too many unknowns to guess well, so I will ask first.',
      text:
        'Hi! You said: “{{lastUserMessage}}”.\n\n' +
        'I am Parley’s built-in **scripted demo** — no AI model is connected yet, so I follow a small script. ' +
        'Let’s plan a weekend together.\n\n' +
        'I would rather ask than guess, so here are three quick questions. ' +
        'Pick an option, tick several, or write your own answer — or just type a normal reply instead.',
      toolCalls: [
        {
          name: 'question',
          args: {
            questions: [
              {
                header: 'Mood',
                question: 'What kind of weekend are you in the mood for?',
                options: [
                  { label: 'Slow and cozy', description: 'Lie-ins, long breakfasts, a good book.' },
                  { label: 'Out and about', description: 'Markets, walks and a neighbourhood you have not explored.' },
                  { label: 'Big adventure', description: 'An early start and a full day trip.' },
                ],
                multiple: false,
                custom: false,
              },
              {
                header: 'Activities',
                question: 'Which of these would you enjoy? Pick as many as you like.',
                options: [
                  { label: 'Food and drink' },
                  { label: 'Nature' },
                  { label: 'Museums and culture' },
                  { label: 'Sport' },
                  { label: 'Board games' },
                ],
                multiple: true,
                custom: false,
              },
              {
                header: 'Company',
                question: 'Who is coming along?',
                options: [
                  { label: 'Just me' },
                  { label: 'My partner' },
                  { label: 'Friends' },
                  { label: 'Family with kids' },
                ],
                multiple: false,
                custom: true,
              },
            ],
          },
        },
      ],
    },
    {
      text:
        'Thanks! This is exactly what came back from the form:\n\n' +
        '> {{lastToolResult}}\n\n' +
        'A real model would tailor the plan to those answers; being a script, I can only show you what such a plan looks like.\n\n' +
        '## Your weekend plan\n\n' +
        '### Saturday\n\n' +
        '- **Morning:** a slow breakfast, then a walk to the market.\n' +
        '- **Afternoon:** the activity you picked first — no alarms, no rush.\n' +
        '- **Evening:** cook something new together, or try that place you keep walking past.\n\n' +
        '### Sunday\n\n' +
        '- **Morning:** fresh air: a park, a river, a hill with a view.\n' +
        '- **Afternoon:** something indoors in case it rains.\n' +
        '- **Evening:** an early night, ready for Monday.\n\n' +
        '| When | What | Cost |\n' +
        '| --- | --- | --- |\n' +
        '| Sat morning | Market and breakfast | Low |\n' +
        '| Sat evening | Dinner | Medium |\n' +
        '| Sun afternoon | Museum or games | Low |\n\n' +
        'Send any message to see how this demo ends.',
    },
    {
      text:
        'That was Parley’s scripted demo. 🎬\n\n' +
        'Everything you just saw — the streamed text, the question form, the Markdown — came from a small JSON script ' +
        'running in your browser, with no network and no key.\n\n' +
        '### Make it yours\n\n' +
        '- **Write your own script** in **Settings → Script**. Step *n* of the script is the reply to the *n*-th model call; ' +
        'each step can have `text`, `reasoning` and `toolCalls`, and its text can quote the last user message or the last tool result.\n' +
        '- **Connect a real model** in **Settings**: any OpenAI-compatible server (OpenAI, OpenRouter, Ollama, LM Studio, llama.cpp, vLLM) or Anthropic. ' +
        'Your key stays in this browser and is only sent to the provider you choose.\n\n' +
        'Whichever you pick, the agent will ask before it guesses.',
    },
  ],
} satisfies Script;

/** The default script (pretty-printed JSON text), as shown in Settings → Script. */
export const DEMO_SCRIPT: string = JSON.stringify(demoScript, null, 2);

type DemoLanguage = 'en' | 'zh-CN';

type DemoText = { text: string; script: ParsedScript };

/** A built-in demo as the scripted model runs it: what parseScript makes of its text (the pace's defaults filled in). */
const asParsed = (script: typeof demoScript | typeof import('./demo-script-zh').demoScriptZh): ParsedScript => ({ chunkSize: SCRIPT_PACE.chunkSize.default, chunkDelayMs: SCRIPT_PACE.chunkDelayMs.default, ...script });

let zhDemo: Promise<DemoText> | undefined;
/** The demo in 简体中文, loaded only where it may be needed: its text is most of the worker's first file otherwise. */
function zhDemoLoaded(): Promise<DemoText> {
  return (zhDemo ??= import('./demo-script-zh').then((module) => ({ text: JSON.stringify(module.demoScriptZh, null, 2), script: asParsed(module.demoScriptZh) })).catch((error: unknown) => {
    zhDemo = undefined;
    throw error;
  }));
}
const zhDemoScript = async () => (await zhDemoLoaded()).text;

/**
 * The built-in demo whose text `script` is, word for word, as the scripted model runs it; undefined for a script the user
 * wrote (the scripted model parses that one, its parser loaded then). The Chinese demo is told only once it has loaded,
 * as it has wherever it is the script (see scriptIn).
 */
export async function builtInDemo(script: string): Promise<ParsedScript | undefined> {
  if (script === DEMO_SCRIPT) return asParsed(demoScript);
  const chinese = zhDemo && (await zhDemo.catch(() => undefined));
  return chinese?.text === script ? chinese.script : undefined;
}

/** The built-in demo in `language`. */
export async function demoScriptIn(language: DemoLanguage): Promise<string> {
  return language === 'en' ? DEMO_SCRIPT : zhDemoScript();
}

/**
 * The script settings hold, in `language`: a stored script that is one of the built-in demos, word for word (or none),
 * is the demo, and follows the language; any other text is the user's and is kept as it is. So a zh-CN user meets the
 * zh-CN demo without a migration, and an edited script is never rewritten. The Chinese demo is loaded only to be shown
 * or to be told from a script the user wrote.
 */
export async function scriptIn(stored: string | undefined, language: DemoLanguage): Promise<string> {
  const englishDemo = stored === undefined || stored === DEMO_SCRIPT;
  if (englishDemo && language === 'en') return DEMO_SCRIPT;
  if (englishDemo || stored === (await zhDemoScript())) return demoScriptIn(language);
  return stored;
}

/** The stored language, else the browser's (the same rule as the UI's first pick). */
export function demoLanguage(stored: string | undefined): DemoLanguage {
  if (stored === 'en' || stored === 'zh-CN') return stored;
  const preferred = globalThis.navigator?.language ?? 'en';
  return preferred.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}
