import { createSignal } from 'solid-js';
import { browserLocale } from './browser-locale';
import { english, type Locale, type MessageKey } from './dictionary';

export type { Locale, MessageKey };

type Strings = Partial<Record<MessageKey, string>>;

/** The strings loaded so far, per language: English's page strings always; the rest once something asked for them. */
const loaded: Partial<Record<Locale, Strings>> = { en: { ...english } };

const [locale, setLoadedLocale] = createSignal<Locale>('en');

/** The current UI locale; a signal, so text re-renders when it changes. */
export { locale };

export { browserLocale };

/**
 * Strings of a screen that is not the first (Settings), of the views that load on use (a tool call's card, the
 * request forms, Find, the attachment chips) or of an error, each a chunk of its own per language, loaded with that code.
 */
type StringsPart = 'settings' | 'views' | 'errors';
const PARTS: Record<StringsPart, Record<Locale, () => Promise<Strings>>> = {
  settings: {
    en: async () => (await import('./settings/settings-dictionary')).settingsEnglish,
    'zh-CN': async () => (await import('./settings/settings-dictionary-zh-CN')).settingsZhCN,
  },
  views: {
    en: async () => (await import('./views/views-dictionary')).viewsEnglish,
    'zh-CN': async () => (await import('./views/views-dictionary-zh-CN')).viewsZhCN,
  },
  errors: {
    en: async () => (await import('./errors/errors-dictionary')).errorsEnglish,
    'zh-CN': async () => (await import('./errors/errors-dictionary-zh-CN')).errorsZhCN,
  },
};
/** The parts some screen asked for: a language switched to later loads them too before it shows. */
const wanted = new Set<StringsPart>();
/** Each language's page strings and parts, loading or loaded (forgotten when a load fails, so it is tried again). */
const pageLoads: Partial<Record<Locale, Promise<void>>> = { en: Promise.resolve() };
const partLoads: Record<Locale, Partial<Record<StringsPart, Promise<void>>>> = { en: {}, 'zh-CN': {} };

function once(loads: Partial<Record<string, Promise<void>>>, name: string, load: () => Promise<void>): Promise<void> {
  return (loads[name] ??= load().catch((error: unknown) => {
    delete loads[name];
    throw error;
  }));
}

/** Loads `language`'s page strings (a chunk of its own for any language but English) and every wanted part of it. */
async function load(language: Locale): Promise<void> {
  await once(pageLoads, language, async () => {
    loaded[language] = { ...(await import('./dictionary-zh-CN')).zhCN };
  });
  await Promise.all(
    [...wanted].map((part) =>
      once(partLoads[language], part, async () => {
        Object.assign(loaded[language]!, await PARTS[part][language]());
      }),
    ),
  );
}

let latest: Locale = 'en';

/**
 * Switches the UI to `next` once its strings are loaded, so text never shows a key or a mix of languages. When called
 * again before a load ends, the last call wins.
 */
export async function setLocale(next: Locale): Promise<void> {
  latest = next;
  await load(next);
  if (latest === next) setLoadedLocale(next);
}

/**
 * Loads a screen's strings in the UI's language (and in the one it is switching to): await it beside the screen's
 * code, so the screen never shows before its words.
 */
export async function loadStrings(part: StringsPart): Promise<void> {
  wanted.add(part);
  await Promise.all([...new Set([locale(), latest])].map(load));
}

/** `load()`'s module once it and `part`'s strings are here: a lazy view's loader, so it never shows before its words. */
export async function withStrings<T>(part: StringsPart, load: () => Promise<T>): Promise<T> {
  const [module] = await Promise.all([load(), loadStrings(part)]);
  return module;
}

/** The browser's language, before anything renders: the page awaits this (at once for English). */
export function loadInitialLocale(): Promise<void> {
  return setLocale(browserLocale());
}

/**
 * `one` where the UI language's plural rules (Intl.PluralRules) say "one" for `count`, else `other`: English says
 * "1 tool call", Chinese has one form for every count. No string says "(s)".
 */
export function plural(count: number, one: MessageKey, other: MessageKey): MessageKey {
  return new Intl.PluralRules(locale()).select(count) === 'one' ? one : other;
}

/** Sentences side by side as the UI language writes them: a space after each in English, none after Chinese's 。 */
export function sentences(...parts: readonly string[]): string {
  return parts.filter(Boolean).join(locale() === 'zh-CN' ? '' : ' ');
}

/** `items` as the UI language lists things (Intl.ListFormat): “a, b, and c” in English, “a、b和c” in Chinese. */
export function listOf(items: readonly string[]): string {
  return new Intl.ListFormat(locale(), { type: 'conjunction' }).format(items);
}

/**
 * A moment for people, as `language` writes it: the time alone when it was today, else date and time (a question's
 * answer, sync's last round). Here, with the page, rather than beside one of its users: the question form and
 * Settings both load on use, and a module they alone shared was a file of its own on a first reply.
 */
export function formatMoment(timestamp: number, language: string, now: number = Date.now()): string {
  const when = new Date(timestamp);
  const sameDay = new Date(now).toDateString() === when.toDateString();
  const format = sameDay
    ? new Intl.DateTimeFormat(language, { timeStyle: 'short' })
    : new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  return format.format(when);
}

/**
 * Looks a UI string up in the current dictionary, filling `{name}` placeholders from `params`. Only known keys compile;
 * a key built at run time must come from a typed map (code → key), not a template string.
 */
export function t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  // A key of a part not loaded yet (a bug: its screen awaits loadStrings) reads as the key, never as a crash.
  const template = loaded[locale()]?.[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
