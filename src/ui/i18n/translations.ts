/** The languages Parley speaks. English is the reference: its keys are the keys. */
export type Locale = 'en' | 'zh-CN';
