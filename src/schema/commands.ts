import * as z from './zod-mini';
import { RequestKind } from './messages/request-kind';
import { QuestionAnswer, QuestionDraft } from './forms/question';
import type { Conversation, ConversationExport, Message, ProfileView, Settings } from './records';
import type { McpServerView } from './mcp';
import type { ConnectionTestResult, ConversationSearchResult, ConversationSizes, ImportRepair, LocalModelStatus, MessagePage, PendingRequest, SettingsOffer } from './protocol';
import { INSTRUCTIONS_LIMIT, MESSAGE_TEXT_LIMIT } from './limits';
import type { SETTINGS_COMMAND_INPUTS } from './settings-command-inputs';
import type { MessageMatches } from './search/find-matches';
import type { DeviceRef } from './sync/device';
import type { RemoteRunners, SyncStatus } from './sync/sync';

/**
 * Said by a command that changes a conversation another device runs (sync): nothing changed here; the request was
 * written as a proposal for that device, which applies it by its compare-and-set, and the outcome comes back.
 */
export interface Proposed {
  proposedTo?: DeviceRef;
}
import { AttachmentInput, MAX_ATTACHMENTS_PER_MESSAGE } from './attachments/attachments';
import { FIRST_SCREEN_INPUTS, RECORD_ID, type FirstScreenType, type PlainField } from './first-screen-inputs';

const conversationId = z.string().check(z.minLength(RECORD_ID.min), z.maxLength(RECORD_ID.max));
const recordId = conversationId;

export type { ProfileInput } from './settings-command-inputs';

/**
 * Where a command runs (docs/architecture.md, "Commands and their scope"):
 * - `device`: on this device, whoever runs the conversation it may name (reads, settings, this device's own things);
 * - `conversation`: on the device that runs the conversation named by `conversationId`; from any other device the very
 *   same command travels to it as a proposal (sync), and it runs the same handler through the same compare-and-set;
 * - `runner`: on the device that runs the conversation; refused elsewhere ("Continue on this device"). Changing it to
 *   `conversation` is all it takes for it to be proposed instead.
 */
type CommandScope = 'device' | 'conversation' | 'runner';

/**
 * Declares one command: its scope, its input, which the worker validates, and beside it the type of the result its reply
 * carries (a type only: `result` is never set). Adding a command is: a line here, a handler, a caller.
 */
function command<Result>() {
  return <Shape extends z.core.$ZodLooseShape, Scope extends CommandScope = 'device'>(shape: Shape, scope: Scope = 'device' as Scope) => ({ input: z.object(shape), scope, result: undefined as unknown as Result });
}

type SettingsInputs = typeof SETTINGS_COMMAND_INPUTS;

/**
 * Declares one of Settings' commands (a device command): its input is `SETTINGS_COMMAND_INPUTS[type]`
 * (settings-command-inputs.ts), which `parseCommand` loads with the first of them, so a first conversation loads none of
 * those schemas. `later` is a type only: it is never set.
 */
function settingsCommand<Result>() {
  return <T extends keyof SettingsInputs>(type: T) => ({ scope: 'device' as const, result: undefined as unknown as Result, later: undefined as unknown as SettingsInputs[T], settingsInput: type });
}

type ZodOfPlain<F extends PlainField> = F extends { kind: 'string' } ? z.ZodMiniString<string> : z.ZodMiniNumber<number>;
type ZodShapeOf<S> = { [K in keyof S]: S[K] extends PlainField ? (S[K] extends { optional: true } ? z.ZodMiniOptional<ZodOfPlain<S[K]>> : ZodOfPlain<S[K]>) : never };

/** The zod input of a first-screen command, from its one declaration in FIRST_SCREEN_INPUTS. */
function plainInput<T extends FirstScreenType>(type: T): ZodShapeOf<(typeof FIRST_SCREEN_INPUTS)[T]> {
  const fields = Object.entries(FIRST_SCREEN_INPUTS[type] as Record<string, PlainField>).map(([name, field]) => {
    const base = field.kind === 'string' ? z.string().check(z.minLength(field.min), z.maxLength(field.max)) : z.number().check(z.int(), z.gte(field.min), z.lte(field.max));
    return [name, field.optional ? z.optional(base) : base];
  });
  return Object.fromEntries(fields) as ZodShapeOf<(typeof FIRST_SCREEN_INPUTS)[T]>;
}

/**
 * The request the user saw when deciding (core/requests/request-ids.ts `RequestBinding`, and for a tool call the SHA-256 of the
 * arguments shown): any other request is refused, never decided. A proposal from another device always carries it.
 */
const RequestExpectation = z.object({
  kind: RequestKind,
  requestedAt: z.optional(z.number()),
  argsHash: z.optional(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
});

/** Every command the UI may send to the worker, each declared once: input and result together. */
export const COMMANDS = {
  'conversation.list': command<Conversation[]>()(plainInput('conversation.list')),
  /** `conversationId` lets the UI open the new view at once, before the reply; creating the same id twice is a no-op. */
  'conversation.create': command<Conversation>()({ title: z.optional(z.string().check(z.trim(), z.maxLength(200))), conversationId: z.optional(conversationId) }),
  /** Removes conversations never used, except `keep` (the one on screen) and any another tab has on screen. */
  'conversation.discardUnused': command<{ removed: string[] }>()(plainInput('conversation.discardUnused')),
  /** The composer's unsent text (empty clears it). */
  'conversation.saveDraft': command<{ saved: true }>()({ conversationId, text: z.string().check(z.maxLength(MESSAGE_TEXT_LIMIT)) }),
  'conversation.rename': command<Conversation>()({ conversationId, title: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)) }, 'runner'),
  'conversation.delete': command<{ conversationId: string }>()({ conversationId }),
  /** `messages` is the newest page (reaching back to any pending request); `earlier` counts the stored messages before it. */
  'conversation.open': command<{ conversation: Conversation; messages: Message[]; earlier?: number }>()(plainInput('conversation.open')),
  'conversation.setProfile': command<Conversation>()({ conversationId, profileId: recordId }, 'runner'),
  /** "Instructions for this conversation" (empty clears them: the profile's apply again). */
  'conversation.setInstructions': command<Conversation>()({ conversationId, instructions: z.string().check(z.trim(), z.maxLength(INSTRUCTIONS_LIMIT)) }, 'runner'),
  'conversation.export': command<ConversationExport>()({}),
  /**
   * An export file as chosen (`file`: read and parsed in the worker, so a big file never blocks the page), or its
   * parsed JSON (`data`). The worker validates it whole before writing anything.
   */
  'conversation.import': settingsCommand<{ imported: number; skipped: number; repairs: ImportRepair[]; settingsOffered?: SettingsOffer; settingsAdded?: SettingsOffer }>()('conversation.import'),
  /** Text, files, or both (the worker refuses a message with neither). The files are written with the message, in one transaction. */
  'message.send': command<{ message?: Message } & Proposed>()({
    conversationId,
    text: z.string().check(z.trim(), z.maxLength(MESSAGE_TEXT_LIMIT)),
    attachments: z.optional(z.array(AttachmentInput).check(z.maxLength(MAX_ATTACHMENTS_PER_MESSAGE))),
    /** The new message's id (a proposal carries one, so applying it twice sends one message); a new one when absent. */
    messageId: z.optional(recordId),
  }, 'conversation'),
  /** The bytes of a file sent with a message, to show it (a thumbnail); never anything a model sent. */
  'attachment.read': command<{ blob: Blob; mimeType: string }>()({ attachmentId: recordId }),
  /** Another reply from the same history, kept beside the earlier ones as a new version (README, "Versions are branches, never copies"). */
  'message.regenerate': command<{ message: Message }>()({ conversationId, messageId: recordId, discardPending: z.optional(z.boolean()) }, 'runner'),
  /** The user's message, edited, as a new version: a new branch from that point; the old one stays reachable. */
  'message.edit': command<{ message: Message }>()({ conversationId, messageId: recordId, text: z.string().check(z.trim(), z.minLength(1), z.maxLength(MESSAGE_TEXT_LIMIT)), discardPending: z.optional(z.boolean()) }, 'runner'),
  /** Puts another version of a message on screen (Previous version / Next version). */
  'message.selectVersion': command<{ conversation: Conversation; messages: Message[] }>()({ conversationId, messageId: recordId, discardPending: z.optional(z.boolean()) }, 'runner'),
  /** Deletes a version of a message and everything after it in its branch; the other versions stay. */
  'message.deleteVersion': command<{ conversation: Conversation; messages: Message[] }>()({ conversationId, messageId: recordId }, 'runner'),
  'run.stop': command<{ conversationId: string } & Proposed>()({ conversationId }, 'conversation'),
  /** Continue an interrupted reply, or retry after an error or a network wait. */
  'run.continue': command<{ conversationId: string }>()({ conversationId }, 'runner'),
  /** The page saw the browser come back online (workers are not always told): resume runs waiting for the network. */
  'network.online': command<{ resumed: true }>()({}),
  'question.saveDraft': command<{ saved: true }>()({ conversationId, messageId: recordId, toolCallId: recordId, draft: QuestionDraft }, 'runner'),
  /**
   * Resolves any request for the user (`{ approved, params }` plus a reason; README, "One pause path"): a question (params
   * `{ answers }`), a tool call to approve (params: edited arguments), a tool call cut off by a crash (approved = run
   * it again), an MCP elicitation (params: the form's content; `cancel` for Cancel rather than Decline).
   */
  'request.resolve': command<{ message: Message } & Proposed>()({
    conversationId,
    messageId: recordId,
    requestId: recordId,
    approved: z.boolean(),
    params: z.optional(z.unknown()),
    reason: z.optional(z.string().check(z.maxLength(2000))),
    cancel: z.optional(z.boolean()),
    expect: z.optional(RequestExpectation),
  }, 'conversation'),
  /** Every request waiting for the user, in every conversation (one indexed query). */
  'requests.listPending': command<PendingRequest[]>()(plainInput('requests.listPending')),
  'settings.get': command<Settings>()(plainInput('settings.get')),
  'settings.update': settingsCommand<Settings>()('settings.update'),
  /** Puts the Built-in demo's own script back (the text lives in the worker). */
  'settings.restoreScript': command<Settings>()({}),
  'profiles.list': command<ProfileView[]>()(plainInput('profiles.list')),
  'profiles.save': settingsCommand<ProfileView>()('profiles.save'),
  'profiles.delete': command<{ profileId: string }>()({ profileId: recordId }),
  /** Check a profile's key and list the server's models; the stored key is used when none is given. */
  'profiles.test': settingsCommand<ConnectionTestResult>()('profiles.test'),
  /** MCP servers with this tab's connection status and their tools. */
  'mcp.list': command<McpServerView[]>()({}),
  /** Add or edit a server, then connect to it; an absent token keeps the stored one while the URL's origin stays. */
  'mcp.save': settingsCommand<McpServerView>()('mcp.save'),
  'mcp.remove': command<{ serverId: string }>()({ serverId: recordId }),
  /** (Re)connect and list the server's tools; replies when connected or failed. */
  'mcp.connect': command<McpServerView>()({ serverId: recordId }),
  'mcp.setPermission': settingsCommand<McpServerView>()('mcp.setPermission'),
  /** An approval of one of the server's tools is on screen: ready its connection for the call (see McpHub.prepareCall). */
  'mcp.prepareCall': command<{ connected: boolean }>()({ conversationId, serverId: recordId }, 'runner'),
  // In-browser model: a model's source is its URL, or `file:<name>` for files picked on the device.
  'localModel.status': settingsCommand<LocalModelStatus>()('localModel.status'),
  /** Starts or resumes a download; only ever sent when the user pressed Download. */
  'localModel.download': settingsCommand<LocalModelStatus>()('localModel.download'),
  'localModel.cancel': settingsCommand<LocalModelStatus>()('localModel.cancel'),
  'localModel.delete': settingsCommand<LocalModelStatus>()('localModel.delete'),
  'localModel.import': settingsCommand<LocalModelStatus>()('localModel.import'),
  'localModel.setOptions': settingsCommand<LocalModelStatus>()('localModel.setOptions'),
  /** What the stored in-browser models take, in bytes: the sum of their files' sizes. */
  'localModel.storedBytes': command<{ bytes: number }>()({}),
  /** A page of a conversation's messages: the newest `limit` with `fromSeq <= seq < beforeSeq`, oldest first. */
  /** A message as stored, every text whole: the page's copies are clipped at PAGE_TEXT_LIMIT (for Copy and export). */
  'message.whole': command<{ message: Message }>()({ messageId: recordId }),
  'conversation.messages': command<MessagePage>()(plainInput('conversation.messages')),
  /** The `limit` largest conversations by approximate stored size, and the total; read in batches, never all at once. */
  'storage.conversationSizes': settingsCommand<ConversationSizes>()('storage.conversationSizes'),
  /** Every stored message on a conversation's path whose text contains `query`, oldest first, with how many times. */
  'conversation.search': command<{ matches: MessageMatches[] }>()({ conversationId, query: z.string().check(z.minLength(1), z.maxLength(500)) }),
  /** Titles and message text of every conversation, best first: the worker's index, built on the first search. */
  // Sync: loaded on first use; nothing of it runs while it is off.
  'sync.status': command<SyncStatus>()(plainInput('sync.status')),
  /** Checks the server, the password and the passphrase, then starts syncing; refused in words when one is wrong. */
  'sync.enable': settingsCommand<SyncStatus>()('sync.enable'),
  /**
   * Stops syncing and forgets the server, the password and the key; every conversation stays on this device. Its mirror
   * is deleted unless `keepMirror` (kept for a later "Turn on sync"); asked while off, it deletes a mirror kept before.
   */
  'sync.disable': settingsCommand<SyncStatus>()('sync.disable'),
  'sync.setDeviceName': settingsCommand<SyncStatus>()('sync.setDeviceName'),
  /** Forgets the documents refused so far (the warning in Sync's status); later ones are counted again. */
  'sync.clearRefusals': command<SyncStatus>()({}),
  /** Puts the key document this device joined with back on the server, where it is gone. */
  'sync.restoreKey': command<SyncStatus>()({}),
  /** The server was set up again under another key: join it with the passphrase; what this device holds goes up under it. */
  'sync.rejoin': settingsCommand<SyncStatus>()('sync.rejoin'),
  /** The conversations another device runs, and which. */
  'sync.runners': command<RemoteRunners>()({}),
  /** "Continue on this device": takes the conversation's run over on the server (one device wins). */
  'conversation.takeOver': command<{ conversationId: string }>()({ conversationId }),
  'conversations.search': command<{ results: ConversationSearchResult[] }>()({ query: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)), limit: z.optional(z.number().check(z.int(), z.gte(1), z.lte(100))) }),
};

type Declarations = typeof COMMANDS;
export type CommandType = keyof Declarations;
/** zod types an empty object as `Record<string, never>`, which no `{ type }` fits: read it as "no fields". */
type Fields<Input> = string extends keyof Input ? unknown : Input;
/** A command's zod input, declared inline or in SETTINGS_COMMAND_INPUTS. */
type InputOf<D> = D extends { input: infer Input } ? Input : D extends { later: infer Input } ? Input : never;
/** One command as sent: its `type` and its input. */
export type CommandOf<T extends CommandType> = { type: T } & Fields<z.infer<InputOf<Declarations[T]>>>;
export type Command = { [T in CommandType]: CommandOf<T> }[CommandType];
/** The commands another device may propose (scope `conversation`). */
export type ProposableType = { [T in CommandType]: Declarations[T]['scope'] extends 'conversation' ? T : never }[CommandType];
/** The result a command's reply carries. */
export type CommandResult<T extends CommandType> = Declarations[T]['result'];

type CommandParse = { success: true; data: Command } | { success: false; field: string | undefined; message: string };

let settingsInputs: Promise<SettingsInputs> | undefined;
/** Settings' command inputs, loaded once (again after a failed load). */
function loadSettingsInputs(): Promise<SettingsInputs> {
  return (settingsInputs ??= import('./settings-command-inputs').then((module) => module.SETTINGS_COMMAND_INPUTS).catch((error: unknown) => {
    settingsInputs = undefined;
    throw error;
  }));
}

/**
 * Validates a raw command against its declaration. Rejects only when a Settings command's inputs cannot be loaded;
 * a malformed command resolves to `success: false` with the field and the rule.
 */
export async function parseCommand(raw: unknown): Promise<CommandParse> {
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  if (typeof type !== 'string' || !Object.hasOwn(COMMANDS, type)) {
    return { success: false, field: 'type', message: `unknown command type ${JSON.stringify(type ?? null)}` };
  }
  const declaration = COMMANDS[type as CommandType];
  const input = 'settingsInput' in declaration ? (await loadSettingsInputs())[declaration.settingsInput] : declaration.input;
  const parsed = input.safeParse(raw);
  if (parsed.success) return { success: true, data: { ...parsed.data, type } as Command };
  const issue = parsed.error.issues[0];
  return { success: false, field: issue?.path.join('.') || undefined, message: issue?.message ?? 'unreadable' };
}
