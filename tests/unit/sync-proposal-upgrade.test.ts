import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/schema/commands';
import { SyncPayload } from '../../src/schema/sync/sync';

// Proposals as the build before commands travelled as themselves wrote them (a committed fixture, decrypted from a real
// phone's mirror): each still reads as the command it meant, which the runner validates and runs like any other.
const fixture = JSON.parse(readFileSync(new URL('../fixtures/sync/proposals-v1.json', import.meta.url), 'utf8')) as { proposals: unknown[] };

function commandOf(payload: unknown) {
  const parsed = SyncPayload.parse(payload);
  if (parsed.kind !== 'proposal') throw new Error('not a proposal');
  return parsed.proposal.command;
}

describe('a proposal written by the build before', () => {
  it('an answer reads as request.resolve naming the request its user saw', async () => {
    const command = commandOf(fixture.proposals[0]);
    expect(command).toEqual({ type: 'request.resolve', conversationId: 'yadd-1', messageId: 'yadd-3', requestId: 'call_0_0', approved: true, params: { answers: [{ selected: ['City'] }] }, expect: { kind: 'question' } });
    expect((await parseCommand(command)).success).toBe(true);
  });

  it('a typed message reads as message.send with its id, and a Stop as run.stop', async () => {
    expect(commandOf(fixture.proposals[1])).toEqual({ type: 'message.send', conversationId: 'yadd-1', text: 'And book it', messageId: '6y85-1' });
    expect(commandOf(fixture.proposals[2])).toEqual({ type: 'run.stop', conversationId: 'yadd-1' });
    for (const payload of fixture.proposals) expect((await parseCommand(commandOf(payload))).success).toBe(true);
  });

  it('an Allow for a tool call keeps the arguments it was given for and when the runner asked', () => {
    const old = structuredClone(fixture.proposals[0]) as { proposal: { action: Record<string, unknown> } };
    old.proposal.action = { type: 'resolve', messageId: 'm', requestId: 'call_1', approved: true, argsHash: 'a'.repeat(64), request: { kind: 'rerun', requestedAt: 5 } };
    expect(commandOf(old)).toMatchObject({ type: 'request.resolve', requestId: 'call_1', expect: { kind: 'rerun', requestedAt: 5, argsHash: 'a'.repeat(64) } });
  });

  it('a proposal with neither a command nor an action, or with both, is not a proposal', () => {
    const neither = structuredClone(fixture.proposals[2]) as { proposal: Record<string, unknown> };
    delete neither.proposal.action;
    expect(SyncPayload.safeParse(neither).success).toBe(false);
    const both = structuredClone(fixture.proposals[2]) as { proposal: Record<string, unknown> };
    both.proposal.command = { type: 'run.stop', conversationId: 'yadd-1' };
    expect(SyncPayload.safeParse(both).success).toBe(false);
  });
});
