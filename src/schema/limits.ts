/**
 * Constants the UI needs on its first load. This file imports nothing, zod included: the schemas that use these
 * constants re-export them, so the worker's imports keep working and the UI's first load stays small.
 */

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

/** The built-in scripted model's profile id. */
export const SCRIPTED_PROFILE_ID = 'scripted';
