import type { AppEvent } from '../../schema/events';
import type { ConnectionTestReason, ConnectionTestResult, ImportPart } from '../../schema/protocol';
import { WireError, type ErrorCode, type ErrorReason } from '../../schema/wire-error';
import { visibleFileName } from '../../schema/attachments/file-name';
import { t, type MessageKey } from '../i18n/i18n';
import { errorDetailStrings } from '../i18n/chat/error-detail-strings';
import { RUN_ERROR_KEYS, runErrorText } from './run-error-text';

export { runErrorText };

/**
 * An error as the user reads it: `text` in the UI's language, written from codes and parameters; `detail` is what
 * the worker or the provider said in its own (English) words, shown only as a secondary "Details" line.
 */
export interface ErrorWords {
  text: string;
  detail?: string;
}

const CODE_KEYS: Record<ErrorCode, MessageKey> = {
  invalid_command: 'error.invalid_command',
  not_found: 'error.not_found',
  already_resolved: 'error.already_resolved',
  invalid_answer: 'error.invalid_answer',
  invalid_state: 'error.invalid_state',
  busy: 'error.busy',
  storage_full: 'error.storage_full',
  app_outdated: 'error.app_outdated',
  provider_error: 'error.provider_error',
  internal: 'error.internal',
};

const REASON_KEYS: Record<ErrorReason, MessageKey> = {
  import_not_json: 'data.importNotJson',
  import_not_export: 'error.reason.import_not_export',
  import_inconsistent: 'error.reason.import_inconsistent',
  duplicate_message_id: 'error.reason.duplicate_message_id',
  unsafe_data: 'error.reason.unsafe_data',
  script_invalid: 'settings.scriptInvalid',
  scripted_profile_builtin: 'error.reason.scripted_profile_builtin',
  scripted_profile_undeletable: 'error.reason.scripted_profile_undeletable',
  base_url_scheme: 'error.reason.base_url_scheme',
  malformed_command: 'error.reason.malformed_command',
  conversation_gone: 'error.reason.conversation_gone',
  message_gone: 'error.reason.message_gone',
  question_gone: 'error.reason.question_gone',
  profile_gone: 'error.reason.profile_gone',
  run_in_other_tab: 'error.reason.run_in_other_tab',
  run_in_progress: 'error.reason.run_in_progress',
  nothing_to_continue: 'error.reason.nothing_to_continue',
  answer_count: 'error.reason.answer_count',
  answer_unknown_option: 'error.reason.answer_unknown_option',
  answer_no_free_text: 'error.reason.answer_no_free_text',
  answer_single_only: 'error.reason.answer_single_only',
  answer_nothing: 'error.reason.answer_nothing',
  save_failed: 'error.reason.save_failed',
  request_gone: 'error.reason.request_gone',
  arguments_invalid: 'error.reason.arguments_invalid',
  form_invalid: 'error.reason.form_invalid',
  elicitation_dead: 'error.reason.elicitation_dead',
  elicitation_pending: 'error.reason.elicitation_pending',
  draft_not_question: 'error.reason.draft_not_question',
  request_pending_in_branch: 'branch.leaveBody',
  profile_no_model: 'error.reason.profile_no_model',
  server_name_taken: 'error.reason.server_name_taken',
  already_sent: 'error.reason.already_sent',
  runs_elsewhere: 'error.reason.runs_elsewhere',
  taken_over_elsewhere: 'error.reason.taken_over_elsewhere',
  request_changed: 'error.reason.request_changed',
  // A refused `sync.enable` says what a SyncStatus with the same reason says.
  sync_wrong_passphrase: 'sync.reason.wrong_passphrase',
  sync_unauthorized: 'sync.reason.unauthorized',
  sync_unreachable: 'sync.reason.unreachable',
  sync_not_a_database: 'sync.reason.not_a_database',
  sync_key_missing: 'sync.reason.key_missing',
  sync_off: 'error.reason.sync_off',
  not_proposable: 'error.reason.not_proposable',
  outdated_device: 'error.reason.outdated_device',
  arguments_changed: 'error.reason.arguments_changed',
  attachment_unsupported: 'error.reason.attachment_unsupported',
  attachment_too_large: 'error.reason.attachment_too_large',
  attachment_too_many: 'error.reason.attachment_too_many',
  images_not_accepted: 'error.reason.images_not_accepted',
  attachments_over_quota: 'error.reason.attachments_over_quota',
  attachment_gone: 'error.reason.attachment_gone',
  attachment_syncing: 'error.reason.attachment_syncing',
  message_empty: 'error.reason.message_empty',
  import_attachment_mismatch: 'error.reason.import_attachment_mismatch',
};

/** Reasons whose worker text adds what the sentence cannot: the script parser's complaint, the storage failure's. */
const REASONS_WITH_DETAIL: ReadonlySet<ErrorReason> = new Set(['script_invalid', 'save_failed', 'arguments_invalid', 'form_invalid']);

const TEST_KEYS: Record<Exclude<ConnectionTestReason, 'connected' | 'connected_model_missing' | keyof typeof RUN_ERROR_KEYS>, MessageKey> = {
  scripted: 'test.scripted',
  in_browser: 'test.in_browser',
  missing_settings: 'test.missing_settings',
  timeout: 'test.timeout',
  models_not_found: 'test.models_not_found',
  not_a_model_list: 'test.not_a_model_list',
};

/** The free-form fields of an import the worker names in `params.part` (see ImportPart). */
const IMPORT_PART_KEYS = {
  arguments: 'error.importPart.arguments',
  original_arguments: 'error.importPart.original_arguments',
  input_schema: 'error.importPart.input_schema',
  requested_schema: 'error.importPart.requested_schema',
  form_content: 'error.importPart.form_content',
} as const satisfies Record<ImportPart, MessageKey>;

type StorageErrorEvent = Extract<AppEvent, { type: 'storage-error' }>;
const STORAGE_KEYS: Record<NonNullable<StorageErrorEvent['reason']>, MessageKey> = {
  storage_full: 'error.storage_full',
  save_failed: 'error.reason.save_failed',
  database_closed: 'storage.databaseClosed',
  open_failed: 'storage.openFailed',
};

/**
 * Any error in the UI's words. A worker error is worded from its code, reason and params; its English message is
 * only detail, kept for the cases where it says something the sentence cannot. Anything else is unexpected.
 */
export function describeError(error: unknown): ErrorWords {
  if (error instanceof WireError) {
    const params = error.params ?? {};
    // Files refused for the quota say so in their own words; any other full disk says how much Parley uses.
    if (error.code === 'storage_full' && error.reason !== 'attachments_over_quota') return storageFull(params.usage, params.quota);
    // The file as a whole is wrong (not an object at all): there is no field to name.
    if (error.reason === 'import_not_export' && params.field === undefined) return { text: t('error.importNotExportFile') };
    const reasonKey = keyFor(REASON_KEYS, error.reason);
    if (error.reason !== undefined && reasonKey) {
      const text = t(reasonKey, paramsFor(error.reason, params));
      // What the sync server said in its own words is all the detail there is (its English message repeats the reason).
      if (error.reason.startsWith('sync_')) return params.said !== undefined && String(params.said).trim() ? { text, detail: t('sync.serverSaid', { said: params.said }) } : { text };
      return REASONS_WITH_DETAIL.has(error.reason) ? withDetail(text, error.message) : { text };
    }
    const text = t(keyFor(CODE_KEYS, error.code) ?? 'error.internal', params);
    // An internal failure's text is the only account of what happened: keep it as detail. Other codes say it all.
    return error.code === 'internal' ? withDetail(text, error.message) : { text };
  }
  return withDetail(t('error.unexpected'), error instanceof Error ? error.message : String(error));
}

/** Reasons whose `params.name` is a file's name. */
const FILE_NAME_REASONS: ReadonlySet<ErrorReason> = new Set(['attachment_unsupported', 'attachment_too_large', 'images_not_accepted']);

/** The values a reason's sentence is filled from: a part's name and a device's name are words of the UI too. */
function paramsFor(reason: ErrorReason, params: Readonly<Record<string, string | number>>): Record<string, string | number> {
  if (reason === 'unsafe_data') return { ...params, part: t(keyFor(IMPORT_PART_KEYS, String(params.part)) ?? 'error.importPart.unknown') };
  // A device without a name (or a worker that did not say which) is "another device", never an empty gap.
  if (reason === 'runs_elsewhere') return { ...params, device: String(params.device ?? '').trim() || t('sync.anotherDevice') };
  // A file's name cannot reorder the sentence it is in (see visibleFileName).
  if (typeof params.name === 'string' && FILE_NAME_REASONS.has(reason)) return { ...params, name: visibleFileName(params.name) };
  return { ...params };
}

/** Run errors whose sentence says all their English message did: no "Details" in another language's page. */
const SELF_WORDED_RUN_ERRORS: ReadonlySet<string> = new Set(['profile_gone', 'key_needed', 'step_limit', 'invalid_questions', 'images_not_accepted']);

/**
 * A run's error or an error block, from its code. Its detail (status, URL, what to change) is worded from the worker's
 * detail code and parameters; only the server's own words (`said`) stay as they came. A record without a detail code
 * (written by an older version) shows its stored text.
 */
export function describeRunError(failure: { code: string; message: string; detail?: { key: string; params?: Record<string, string | number> } | undefined }): ErrorWords {
  const text = runErrorText(failure.code);
  const worded = wordedDetail(failure.detail);
  if (worded !== undefined) return withDetail(text, worded);
  if (SELF_WORDED_RUN_ERRORS.has(failure.code)) return { text };
  return withDetail(text, failure.message);
}

/** A detail code and its parameters in the UI's language, the server's own words (`said`) added as they came. */
function wordedDetail(detail: { key: string; params?: Record<string, string | number> } | undefined): string | undefined {
  const key = detail ? keyFor(DETAIL_KEYS, detail.key) : undefined;
  if (!detail || !key) return undefined;
  const params = detail.params ?? {};
  const said = params.said !== undefined && !errorDetailStrings.en[key].includes('{said}') ? ` ${t('errorDetail.said', { said: params.said })}` : '';
  return t(key, params) + said;
}

/** Every `errorDetail.*` key by its detail code (the part after the prefix). */
type DetailKey = keyof (typeof errorDetailStrings)['en'];
const DETAIL_KEYS: Readonly<Record<string, DetailKey>> = Object.fromEntries(
  (Object.keys(errorDetailStrings.en) as DetailKey[]).filter((key) => key !== 'errorDetail.said').map((key) => [key.slice('errorDetail.'.length), key]),
);

/**
 * A connection test's outcome. Without a reason (an older worker), the test's own text is all there is. Only Settings'
 * profile form shows it: its `test.*` words load with Settings' strings.
 */
export function describeTestResult(result: ConnectionTestResult): ErrorWords {
  const params = result.params ?? {};
  switch (result.reason) {
    case undefined:
      return { text: result.message || t(result.ok ? 'settings.testOk' : 'settings.testFailed') };
    case 'connected':
    case 'connected_model_missing': {
      const count = Number(params.count ?? result.models?.length ?? 0);
      const values = { count, model: String(params.model ?? '') };
      if (result.reason === 'connected') return { text: t(count === 1 ? 'test.connectedOne' : 'test.connectedMany', values) };
      return { text: t(count === 1 ? 'test.connectedOneModelMissing' : 'test.connectedManyModelMissing', values) };
    }
    case 'rate_limited': {
      // A test has no Continue: say when to try again, from the server's Retry-After when it sent one.
      const seconds = Number(params.retryAfterSeconds);
      return withDetail(Number.isFinite(seconds) && seconds > 0 ? t('test.rateLimitedWait', { seconds }) : t('test.rateLimited'), result.message);
    }
    default: {
      const testKey = keyFor(TEST_KEYS, result.reason);
      const key = keyFor(RUN_ERROR_KEYS, result.reason) ?? testKey ?? 'settings.testFailed';
      const worded = wordedDetail(result.detail);
      if (worded !== undefined) return withDetail(t(key, params), worded);
      // The test's own reasons are worded whole by their sentence; its English text would only repeat it.
      return result.ok || testKey ? { text: t(key, params) } : withDetail(t(key, params), result.message);
    }
  }
}

/** The storage banner's words: from the event's reason (and bytes), else a plain "could not save" with detail. */
export function describeStorageError(event: Pick<StorageErrorEvent, 'message' | 'reason' | 'usage' | 'quota'>): ErrorWords {
  if (event.reason === 'storage_full') return storageFull(event.usage, event.quota);
  const key = keyFor(STORAGE_KEYS, event.reason);
  if (key) return { text: t(key) };
  return withDetail(t('storage.error'), event.message);
}

function storageFull(usage: string | number | undefined, quota: string | number | undefined): ErrorWords {
  if (typeof usage !== 'number' || typeof quota !== 'number' || quota <= 0) return { text: t('error.storage_full') };
  const megabytes = (bytes: number) => Math.round(bytes / 100_000) / 10;
  return { text: t('error.storageFullUsage', { used: megabytes(usage), quota: megabytes(quota) }) };
}

/** The key a code maps to; undefined for a code the map does not know (stored or imported data may hold any string). */
function keyFor<Key extends MessageKey>(map: Readonly<Record<string, Key>>, code: string | undefined): Key | undefined {
  return code !== undefined && Object.hasOwn(map, code) ? map[code] : undefined;
}

function withDetail(text: string, detail: string): ErrorWords {
  const trimmed = detail.trim();
  return trimmed && trimmed !== text ? { text, detail: trimmed } : { text };
}
