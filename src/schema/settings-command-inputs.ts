import * as z from './zod-mini';
import { INSTRUCTIONS_LIMIT, ProviderKind } from './records';
import { McpServerInput, ToolPermission } from './mcp';
import { MAX_ENGINE_THREADS } from './limits';
import { RECORD_ID } from './first-screen-inputs';

// The inputs of Settings' commands: each command's line is in COMMANDS (commands.ts), with its scope and result; its
// input is here, loaded by `parseCommand` with the first of them, since a first conversation sends none
// (docs/architecture.md, "Commands and their scope").

const recordId = z.string().check(z.minLength(RECORD_ID.min), z.maxLength(RECORD_ID.max));
/** Stored in a profile's `model` field, so it has the same limit. */
const localModelSource = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));
const sourceOnly = z.object({ source: localModelSource });

/** A profile as the Settings form submits it; an absent apiKey keeps the stored one. */
export const ProfileInput = z.object({
  id: z.optional(recordId),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
  kind: ProviderKind,
  baseUrl: z._default(z.string().check(z.trim(), z.maxLength(2000)), ''),
  apiKey: z.optional(z.string().check(z.trim(), z.maxLength(500))),
  model: z._default(z.string().check(z.trim(), z.maxLength(200)), ''),
  instructions: z.optional(z.string().check(z.trim(), z.maxLength(INSTRUCTIONS_LIMIT))),
  /** Null (or absent) leaves it to the provider. */
  temperature: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(2)))),
  maxOutputTokens: z.optional(z.nullable(z.number().check(z.int(), z.gte(1), z.lte(1_000_000)))),
  /** "Accepts images"; absent keeps the stored choice (or the kind's default). */
  acceptsImages: z.optional(z.boolean()),
});
export type ProfileInput = z.infer<typeof ProfileInput>;

/** By command type; COMMANDS names each of them with `settingsCommand`. */
export const SETTINGS_COMMAND_INPUTS = {
  /**
   * An export file as chosen (`file`: read and parsed in the worker, so a big file never blocks the page), or its
   * parsed JSON (`data`). The worker validates it whole before writing anything.
   */
  'conversation.import': z.object({
    data: z.optional(z.unknown()),
    file: z.optional(z.instanceof(Blob)),
    /**
     * The file's settings (profiles without keys, MCP servers without tokens, the script): `ask` imports nothing when it
     * holds any that are not here yet and says what (`settingsOffered`); the caller asks the user, then sends `add` or
     * `skip`. Absent: `skip`.
     */
    settings: z.optional(z.enum(['ask', 'add', 'skip'])),
  }),
  'settings.update': z.object({
    script: z.optional(z.string().check(z.maxLength(1_000_000))),
    defaultProfileId: z.optional(recordId),
    locale: z.optional(z.enum(['en', 'zh-CN'])),
    /** The Built-in demo's instructions; empty removes them. */
    demoInstructions: z.optional(z.string().check(z.trim(), z.maxLength(INSTRUCTIONS_LIMIT))),
  }),
  'profiles.save': z.object({ profile: ProfileInput }),
  'profiles.test': z.object({ profile: ProfileInput }),
  'mcp.save': z.object({ server: McpServerInput }),
  'mcp.setPermission': z.object({ serverId: recordId, toolName: z.string().check(z.minLength(1), z.maxLength(200)), permission: ToolPermission }),
  // In-browser model: a model's source is its URL, or `file:<name>` for files picked on the device.
  'localModel.status': sourceOnly,
  'localModel.download': sourceOnly,
  'localModel.cancel': sourceOnly,
  'localModel.delete': sourceOnly,
  'localModel.import': z.object({ name: z.string().check(z.minLength(1), z.maxLength(190)), files: z.array(z.instanceof(Blob)).check(z.minLength(1), z.maxLength(64)) }),
  'localModel.setOptions': z.object({
    source: localModelSource,
    constrainToolCalls: z.optional(z.boolean()),
    /** CPU threads for the engine; 0 = automatic. */
    threads: z.optional(z.number().check(z.int(), z.gte(0), z.lte(MAX_ENGINE_THREADS))),
  }),
  'storage.conversationSizes': z.object({ limit: z.number().check(z.int(), z.gte(1), z.lte(100)) }),
  'sync.enable': z.object({
    url: z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)),
    username: z.string().check(z.maxLength(200)),
    password: z.string().check(z.maxLength(500)),
    passphrase: z.string().check(z.minLength(1), z.maxLength(500)),
    /** The database holds data but its key document is gone: make a new one (the person chose to, in words). */
    newKey: z.optional(z.boolean()),
  }),
  'sync.disable': z.object({ keepMirror: z.optional(z.boolean()) }),
  'sync.setDeviceName': z.object({ name: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)) }),
  'sync.rejoin': z.object({ passphrase: z.string().check(z.minLength(1), z.maxLength(500)) }),
};
