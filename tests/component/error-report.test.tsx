import { describe, expect, it, vi } from 'vitest';
import { WireError } from '../../src/schema/wire-error';
import type { WorkerClient } from '../../src/ui/state/channel';
import { createReportingClient } from '../../src/ui/common/error-report';

const failing = (error: WireError): WorkerClient => ({ send: async () => Promise.reject(error), onEvent: () => () => undefined });

describe('the reporting client', () => {
  const refused = new WireError({ code: 'invalid_state', reason: 'sync_unreachable', message: 'The sync server cannot be reached.' });

  it('reports a failure once, as a toast, and still rejects for its caller', async () => {
    const report = vi.fn();
    await expect(createReportingClient(failing(refused), report).send({ type: 'sync.runners' })).rejects.toBe(refused);
    expect(report).toHaveBeenCalledWith(refused);
  });

  it('leaves a failure to a caller that says it shows it beside its control, which still hears of it', async () => {
    const report = vi.fn();
    await expect(createReportingClient(failing(refused), report).send({ type: 'conversation.takeOver', conversationId: 'c1' }, { showsErrors: true })).rejects.toBe(refused);
    expect(report).not.toHaveBeenCalled();
  });

  it('never reports already_resolved (the first outcome is an answer), nor a reason every caller words in place', async () => {
    const report = vi.fn();
    const first = new WireError({ code: 'already_resolved', message: 'Already answered' });
    await createReportingClient(failing(first), report).send({ type: 'requests.listPending' }).catch(() => undefined);
    const script = new WireError({ code: 'invalid_command', reason: 'script_invalid', message: 'The script is not valid.' });
    await createReportingClient(failing(script), report).send({ type: 'settings.get' }).catch(() => undefined);
    expect(report).not.toHaveBeenCalled();
  });
});
