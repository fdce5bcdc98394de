import { describe, expect, it } from 'vitest';
import { waitForRunState, type TestTab } from './host-harness';
import type { Profile } from '../../src/schema/records';
import { simulatedDevices, testKeys } from './sync-simulation';
import { documentId, seal } from '../../src/worker/sync/documents/sync-crypto';
import { SealedDocuments } from '../../src/worker/sync/documents/sealed-documents';
import type { SimulatedMirror } from './sync-simulation';
import type { SyncEngine } from '../../src/worker/sync/sync-engine';

// README, "Sync between your devices": model profiles and MCP servers follow the user; API keys, tokens and tool
// permissions never leave the device. docs/architecture.md, "Settings that sync": last writer wins per item.

const PROFILE = { name: 'Work', kind: 'openai-compatible' as const, baseUrl: 'https://llm.work.example/v1', model: 'gpt-work', apiKey: 'sk-work-secret-4242', instructions: 'Answer tersely.' };

const profileNamed = async (tab: TestTab, name: string) => (await tab.host.settings.listProfiles()).find((profile) => profile.name === name);
const storedProfile = async (tab: TestTab, id: string) => tab.host.settings.getProfile(id);
const servers = (tab: TestTab) => tab.host.mcp.listServers();
const storedServers = async (tab: TestTab) => (await import('../../src/worker/mcp/mcp-server-store')).readList((await (tab.host.settings as unknown as { config: { read(): Promise<{ mcpServers: unknown }> } }).config.read()).mcpServers);

describe('settings that sync', { timeout: 60_000 }, () => {
  it('a profile reaches the other device without its key, which it then asks for; the server holds none of it in plaintext', async () => {
    const { laptop, phone, replicator, server } = await simulatedDevices(1);
    const saved = await laptop.send({ type: 'profiles.save', profile: PROFILE });
    await replicator.settle(async () => (await profileNamed(phone, 'Work')) !== undefined);
    const arrived = await storedProfile(phone, saved.id);
    expect(arrived).toMatchObject({ id: saved.id, name: 'Work', kind: 'openai-compatible', baseUrl: 'https://llm.work.example/v1', model: 'gpt-work', instructions: 'Answer tersely.', apiKey: '', keyNeeded: true });
    // The laptop keeps its own key; nothing of the profile is readable on the server.
    expect((await storedProfile(laptop, saved.id))?.apiKey).toBe('sk-work-secret-4242');
    for (const secret of ['sk-work-secret', 'llm.work.example', 'gpt-work', 'tersely', '"Work"']) expect(server.allPlaintext()).not.toContain(secret);
    // The phone types its own key: used there, never sent back, and the laptop's stays its own.
    await phone.send({ type: 'profiles.save', profile: { id: saved.id, name: 'Work', kind: 'openai-compatible', baseUrl: 'https://llm.work.example/v1', model: 'gpt-work', apiKey: 'sk-phone-key-77', instructions: 'Answer tersely.' } });
    expect(await storedProfile(phone, saved.id)).toMatchObject({ apiKey: 'sk-phone-key-77' });
    expect((await storedProfile(phone, saved.id))?.keyNeeded).toBeUndefined();
    await replicator.settle();
    expect((await storedProfile(laptop, saved.id))?.apiKey).toBe('sk-work-secret-4242');
    expect(server.allPlaintext()).not.toContain('sk-phone-key');
  });

  it('a conversation sent with a profile whose key is on another device stops in words, asks nothing of the model, and goes on once the key is typed', async () => {
    const keysUsed: string[] = [];
    const createModel = async (profile: Profile) => {
      keysUsed.push(profile.apiKey);
      return { async *streamStep() { yield { type: 'text-delta' as const, text: 'Hello from Work' }; yield { type: 'finish' as const }; } };
    };
    const { laptop, phone, replicator } = await simulatedDevices(4, { tabs: { phone: { createModel } } });
    const saved = await laptop.send({ type: 'profiles.save', profile: PROFILE });
    await replicator.settle(async () => (await profileNamed(phone, 'Work')) !== undefined);
    const { id: conversationId } = await phone.send({ type: 'conversation.create' });
    await phone.send({ type: 'conversation.setProfile', conversationId, profileId: saved.id });
    await phone.send({ type: 'message.send', conversationId, text: 'Hi' });
    await waitForRunState(phone, conversationId, ['error']);
    expect((await phone.host.store.getConversation(conversationId))?.runError?.code).toBe('key_needed');
    expect(keysUsed).toEqual([]);
    // The key typed on the phone (as the chat's form sends it), then Continue: the model is asked with it.
    await phone.send({ type: 'profiles.save', profile: { id: saved.id, name: 'Work', kind: 'openai-compatible', baseUrl: PROFILE.baseUrl, model: PROFILE.model, apiKey: 'sk-phone-key-77', instructions: PROFILE.instructions } });
    await phone.send({ type: 'run.continue', conversationId });
    await waitForRunState(phone, conversationId, ['idle']);
    expect(keysUsed).toEqual(['sk-phone-key-77']);
  });

  it('an edit and a deletion follow; an edit that moves the base URL elsewhere leaves the key behind', async () => {
    const { laptop, phone, replicator } = await simulatedDevices(2);
    const saved = await laptop.send({ type: 'profiles.save', profile: PROFILE });
    await replicator.settle(async () => (await profileNamed(phone, 'Work')) !== undefined);
    await phone.send({ type: 'profiles.save', profile: { ...PROFILE, id: saved.id, apiKey: 'sk-phone-key-77' } });
    await laptop.send({ type: 'profiles.save', profile: { ...PROFILE, id: saved.id, apiKey: 'sk-other-server-5', baseUrl: 'https://other.example/v1', model: 'gpt-other' } });
    await replicator.settle(async () => (await storedProfile(phone, saved.id))?.model === 'gpt-other');
    // The phone's key was for the old server: it does not follow the URL (as for an edit made on the phone itself).
    expect(await storedProfile(phone, saved.id)).toMatchObject({ baseUrl: 'https://other.example/v1', apiKey: '', keyNeeded: true });
    await laptop.send({ type: 'profiles.delete', profileId: saved.id });
    await replicator.settle(async () => (await storedProfile(phone, saved.id)) === undefined);
    expect(phone.events.some((event) => event.type === 'profiles-changed')).toBe(true);
  });

  it('an MCP server travels with its name and URL, never its token; a tool permission stays on the device that gave it', async () => {
    const { laptop, phone, replicator, server } = await simulatedDevices(3);
    const added = await laptop.send({ type: 'mcp.save', server: { name: 'Files', url: 'http://127.0.0.1:9/mcp-files', token: 'tok-files-secret-99' } });
    await laptop.send({ type: 'mcp.setPermission', serverId: added.id, toolName: 'mcp__files__delete', permission: 'allow' });
    await replicator.settle(async () => (await servers(phone)).some((entry) => entry.name === 'Files'));
    const [onPhone] = await storedServers(phone);
    expect(onPhone).toMatchObject({ id: added.id, name: 'Files', url: 'http://127.0.0.1:9/mcp-files', permissions: {} });
    expect(onPhone?.token).toBeUndefined();
    for (const secret of ['tok-files-secret', 'mcp-files', 'mcp__files__delete', 'allow']) expect(server.allPlaintext()).not.toContain(secret);
    // "Never" on the phone and "Always allow" on the laptop stay apart, through an edit of the server's URL path too.
    await phone.send({ type: 'mcp.setPermission', serverId: added.id, toolName: 'mcp__files__delete', permission: 'never' });
    await laptop.send({ type: 'mcp.save', server: { id: added.id, name: 'Files', url: 'http://127.0.0.1:9/mcp-files-v2' } });
    await replicator.settle(async () => (await storedServers(phone))[0]?.url === 'http://127.0.0.1:9/mcp-files-v2');
    expect((await storedServers(laptop))[0]).toMatchObject({ token: 'tok-files-secret-99', permissions: { mcp__files__delete: 'allow' } });
    expect((await storedServers(phone))[0]).toMatchObject({ permissions: { mcp__files__delete: 'never' } });
  });

  it('two devices editing one profile at once end the same: the later clock wins, then the greater device id', async () => {
    for (let trial = 0; trial < 5; trial += 1) {
      const { laptop, phone, replicator, laptopMirror } = await simulatedDevices(10 + trial);
      const saved = await laptop.send({ type: 'profiles.save', profile: PROFILE });
      await replicator.settle(async () => (await profileNamed(phone, 'Work')) !== undefined);
      replicator.setOffline(laptopMirror, true);
      await laptop.send({ type: 'profiles.save', profile: { ...PROFILE, id: saved.id, apiKey: undefined, name: 'Work (laptop)' } });
      await phone.send({ type: 'profiles.save', profile: { ...PROFILE, id: saved.id, apiKey: undefined, name: 'Work (phone)' } });
      // Both wrote clock 2.
      await flushBoth(laptop, phone);
      for (let step = 0; step < trial; step += 1) replicator.step();
      replicator.setOffline(laptopMirror, false);
      await replicator.settle(async () => (await storedProfile(laptop, saved.id))?.name === (await storedProfile(phone, saved.id))?.name);
      // Equal clocks: "device-phone" > "device-laptop".
      expect((await storedProfile(laptop, saved.id))?.name).toBe('Work (phone)');
      expect((await storedProfile(laptop, saved.id))?.apiKey).toBe('sk-work-secret-4242');
    }
  });

  it('a deletion is a tombstone: a device offline with the older copy does not bring the profile back', async () => {
    const { laptop, phone, replicator, phoneMirror } = await simulatedDevices(20);
    const saved = await laptop.send({ type: 'profiles.save', profile: PROFILE });
    await replicator.settle(async () => (await profileNamed(phone, 'Work')) !== undefined);
    replicator.setOffline(phoneMirror, true);
    await laptop.send({ type: 'profiles.delete', profileId: saved.id });
    await flushBoth(laptop, phone);
    replicator.setOffline(phoneMirror, false);
    await replicator.settle(async () => (await storedProfile(phone, saved.id)) === undefined);
    expect(await storedProfile(laptop, saved.id)).toBeUndefined();
  });

  it('settings made before sync was on go out when it starts, and a device without a key says so only where one was set', async () => {
    const { laptop, phone, replicator } = await simulatedDevices(30, {
      prepare: async (laptopTab) => {
        await laptopTab.send({ type: 'profiles.save', profile: PROFILE });
        await laptopTab.send({ type: 'profiles.save', profile: { name: 'Local Ollama', kind: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', model: 'llama3' } });
      },
    });
    await replicator.settle(async () => (await profileNamed(phone, 'Local Ollama')) !== undefined && (await profileNamed(phone, 'Work')) !== undefined);
    expect((await storedProfile(phone, (await profileNamed(phone, 'Local Ollama'))!.id))?.keyNeeded).toBeUndefined();
    expect((await storedProfile(phone, (await profileNamed(phone, 'Work'))!.id))?.keyNeeded).toBe(true);
    expect(await laptop.host.sync.runners()).toEqual({});
  });

  it('an older device passes over a setting document instead of refusing it; a kind a later build syncs is left alone', async () => {
    const { laptop, phone, replicator, phoneMirror } = await simulatedDevices(40);
    await laptop.send({ type: 'profiles.save', profile: PROFILE });
    await replicator.settle(async () => (await profileNamed(phone, 'Work')) !== undefined);
    // The build before settings synced opened every document through SealedDocuments.read: a setting's is not one to it.
    let unreadable = 0;
    const older = new SealedDocuments(phoneMirror, await testKeys(), () => (unreadable += 1));
    for (const { document } of phoneMirror.local.changesSince(0)) if (document.s) expect(await older.read(document)).toBeUndefined();
    expect(unreadable).toBe(0);
    // A record of a kind this build does not know is not counted as refused either.
    await writeSetting(phoneMirror, { kind: 'theme', id: 'x', clock: 1, writer: 'device-tablet', value: 'dark' });
    await replicator.settle();
    expect(engineOf(phone).refused()).toBeUndefined();
  });

  it('a setting document under another item’s id is refused as misplaced, not applied', async () => {
    const { laptop, phone, replicator, phoneMirror } = await simulatedDevices(50);
    await writeSetting(phoneMirror, { kind: 'profile', id: 'forged', clock: 5, writer: 'device-tablet', value: { name: 'Forged', kind: 'openai-compatible', baseUrl: 'https://evil.example', model: 'm', keyed: false } }, 'elsewhere');
    await replicator.settle(async () => engineOf(laptop).refused()?.misplaced === 1 && engineOf(phone).refused()?.misplaced === 1);
    expect(await profileNamed(laptop, 'Forged')).toBeUndefined();
    expect(await profileNamed(phone, 'Forged')).toBeUndefined();
  });
});

function engineOf(tab: TestTab): SyncEngine {
  return (tab.host.sync as unknown as { active: { engine: SyncEngine } }).active.engine;
}

async function flushBoth(...tabs: TestTab[]): Promise<void> {
  for (const tab of tabs) await engineOf(tab).flush();
}

async function writeSetting(mirror: SimulatedMirror, record: Record<string, unknown>, idOf?: string): Promise<void> {
  const keys = await testKeys();
  const id = await documentId(keys, 'setting', String(record.kind), idOf ?? String(record.id));
  await mirror.put({ _id: id, e: 1, s: await seal(keys, JSON.stringify(record)) });
}
