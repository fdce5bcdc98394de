/** The languages Parley speaks. English is the reference: its keys are the keys. */
export type Locale = 'en' | 'zh-CN';

/**
 * One part of the dictionary: English sets the keys, every other language is a `Record` over exactly them, so a
 * key missing in one language fails the type check. A part lives beside what uses it and is spread into the one
 * dictionary (dictionary.ts).
 */
export type Translations<Key extends string> = { en: Record<Key, string> } & Record<Exclude<Locale, 'en'>, Record<Key, string>>;

/**
 * Types a part written as one object literal: English sets the keys, and every other language must have exactly those
 * (a missing or an extra key fails the type check).
 */
export function defineTranslations<Key extends string>(
  part: { en: Record<Key, string> } & Record<Exclude<Locale, 'en'>, Record<NoInfer<Key>, string>>,
): Translations<Key> {
  return part;
}
