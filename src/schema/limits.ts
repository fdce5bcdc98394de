/**
 * Constants the UI needs on its first load. This file imports nothing, zod included: the schemas that use these
 * constants re-export them, so the worker's imports keep working and the UI's first load stays small.
 */

/** The most characters a message (or its unsent draft) holds: the composer says so before the worker would refuse it. */
export const MESSAGE_TEXT_LIMIT = 100_000;

/** The longest instructions a profile or a conversation holds. */
export const INSTRUCTIONS_LIMIT = 20_000;

/** Bounds of the question tool's input, shared by its schema and the form that shows it. */
export const QUESTION_LIMITS = {
  questions: 4,
  options: 10,
  header: 30,
  question: 500,
  label: 30,
  description: 200,
  otherText: 2000,
} as const;

/**
 * A tab showing a conversation holds a shared Web Lock of this name plus the conversation's id, so another tab's
 * clean-up of unused conversations leaves the one on screen alone.
 */
export const VIEW_LOCK_PREFIX = 'parley-view:';

/** Bounds of a scripted model's pace; the defaults give a pleasant reading speed (about 160 characters a second). */
export const SCRIPT_PACE = {
  chunkSize: { default: 4, min: 1, max: 10_000 },
  chunkDelayMs: { default: 25, min: 0, max: 10_000 },
} as const;

/** The built-in scripted model's profile id. */
export const SCRIPTED_PROFILE_ID = 'scripted';

/** The most CPU threads the in-browser engine is given, whatever the device has. */
export const MAX_ENGINE_THREADS = 8;

/**
 * The engine's CPU threads: the user's choice (`setting` > 0, at most the cores), else half the cores as wllama does:
 * on a 2-core device a second compute thread fights the page and the agent host (measured: slower than one). More than
 * one needs cross-origin isolation (SharedArrayBuffer).
 */
export function engineThreads(setting: number, cores: number, isolated: boolean): number {
  if (!isolated) return 1;
  if (setting > 0) return Math.min(setting, Math.max(1, cores), MAX_ENGINE_THREADS);
  return Math.max(1, Math.min(4, Math.floor(cores / 2)));
}

/**
 * The most of one text or reasoning block the worker sends to the page (ten times what the page renders before "Show
 * all"; "Show all" of a million characters makes no task over ~85 ms): a 100 MB message copied whole into the page held its main
 * thread for ~200 ms on every open. Copy and export ask for the whole message.
 */
export const PAGE_TEXT_LIMIT = 1_000_000;

// Files sent with a message (schema/attachments/attachment-kinds.ts applies them).
/** At most this many files go with one message. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;
/** An image may be at most 20 MB: what OpenAI accepts per image (Anthropic takes less and says so itself). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** A text file may be at most 1 MB: about 250,000 tokens, more than most models' whole context. */
export const MAX_TEXT_BYTES = 1024 * 1024;
/** The longest file name kept. */
export const MAX_ATTACHMENT_NAME = 255;

