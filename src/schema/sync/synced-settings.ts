import * as z from '../zod-mini';
import { Profile } from '../records';

// Settings that follow the user between devices (docs/architecture.md, "Settings that sync"). Each kind is what of a
// setting travels; what stays on one device (an API key, a token, a tool's permission) has no field here at all. Every
// shape is what a device DECRYPTS from the server: validated like any untrusted input.

/** A model profile as it travels: everything but its key, and whether the device that wrote it had one. */
export const SyncedProfile = z.extend(z.omit(Profile, { id: true, apiKey: true, keyNeeded: true }), {
  /** The profile has a key on a device that wrote it: a device without one asks for it on first use. */
  keyed: z.boolean(),
});
export type SyncedProfile = z.infer<typeof SyncedProfile>;

/** An MCP server as it travels: its name and URL. Never its token, never its tools' permissions. */
const SyncedMcpServer = z.object({ name: z.string().check(z.trim(), z.minLength(1), z.maxLength(60)), url: z.string().check(z.maxLength(2000)) });
type SyncedMcpServer = z.infer<typeof SyncedMcpServer>;

/** Every kind of setting that syncs, and what one item of it holds. A new synced setting is one line here. */
export const SYNCED_SETTING_VALUES = {
  profile: SyncedProfile,
  'mcp-server': SyncedMcpServer,
} as const;
export type SyncedSettingKind = keyof typeof SYNCED_SETTING_VALUES;
export type SyncedSettingValue<K extends SyncedSettingKind> = z.infer<(typeof SYNCED_SETTING_VALUES)[K]>;

/**
 * One item of a synced setting, sealed as one document. Last writer wins per item: the higher `clock` (a Lamport clock:
 * one more than the version the writer had), then the greater `writer` id. A deletion is a tombstone (`value` absent),
 * so a device that was offline cannot bring the item back with its older copy.
 */
export const SettingRecord = z.object({
  kind: z.string().check(z.minLength(1), z.maxLength(50)),
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  clock: z.number().check(z.int(), z.gte(1)),
  writer: z.string().check(z.minLength(1), z.maxLength(100)),
  value: z.optional(z.unknown()),
});
export type SettingRecord = z.infer<typeof SettingRecord>;
