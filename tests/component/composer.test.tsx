import { fireEvent, render, screen } from '@solidjs/testing-library';
import { createSignal, Show } from 'solid-js';
import { describe, expect, it, vi } from 'vitest';
import type { RunState } from '../../src/schema/records';
import { Composer } from '../../src/ui/chat/Composer';

function setup(runState: RunState = 'idle', onSend = vi.fn(async (_text: string) => true)) {
  const [state, setState] = createSignal<RunState>(runState);
  const onStop = vi.fn();
  render(() => <Composer conversationId={`c-${Math.random()}`} runState={state()} onSend={onSend} onStop={onStop} />);
  const textbox = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
  const type = (value: string) => fireEvent.input(textbox, { target: { value } });
  return { textbox, type, onSend, onStop, setState };
}

describe('Composer', () => {
  it('disables Send while the message is empty or blank', () => {
    const { type } = setup();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    type('   ');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    type('Plan my weekend');
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('sends the trimmed text on Enter and clears the field once the worker took it', async () => {
    const { textbox, type, onSend } = setup();
    type('  Plan my weekend ');
    fireEvent.keyDown(textbox, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('Plan my weekend', []);
    await vi.waitFor(() => expect(textbox.value).toBe(''));
  });

  it('says a message over the limit is too long before Send, sends nothing, and keeps the text', () => {
    const { textbox, type, onSend } = setup();
    type('x'.repeat(100_000));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
    type('x'.repeat(100_001));
    expect(screen.getByRole('alert')).toHaveTextContent('This message is 100,001 characters long; a message holds at most 100,000. Shorten it, or attach the text as a file.');
    expect(textbox).toHaveAccessibleDescription(/100,001 characters long/);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    fireEvent.keyDown(textbox, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    expect(textbox.value).toHaveLength(100_001);
  });

  it('keeps the text when sending failed, so nothing typed is lost', async () => {
    const { textbox, type, onSend } = setup('idle', vi.fn(async () => false));
    type('Keep me');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(onSend).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    expect(textbox.value).toBe('Keep me');
  });

  it('does not send on Shift+Enter (the browser inserts the new line) nor on an empty Enter', () => {
    const { textbox, type, onSend } = setup();
    fireEvent.keyDown(textbox, { key: 'Enter' });
    type('line one');
    const shiftEnter = fireEvent.keyDown(textbox, { key: 'Enter', shiftKey: true });
    expect(shiftEnter).toBe(true); // not prevented: the textarea gets its new line
    expect(onSend).not.toHaveBeenCalled();
  });

  it('replaces Send with Stop while the run is going, and does not send on Enter then', () => {
    const { textbox, type, onSend, onStop, setState } = setup('running');
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    type('more');
    fireEvent.keyDown(textbox, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledTimes(1);

    setState('waiting_network');
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    setState('idle');
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('stays enabled while a question waits, with a hint that a typed reply answers it', () => {
    const { textbox, type } = setup('awaiting_input');
    expect(textbox).toBeEnabled();
    expect(textbox).toHaveAccessibleDescription(/type a reply here/i);
    type('Cozy, please');
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('offers Stop beside Send while a question waits, and only then', () => {
    const { onStop, setState } = setup('awaiting_input');
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
    setState('idle');
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  it('keeps unsent text per conversation across a view switch and saves it, debounced', async () => {
    vi.useFakeTimers();
    try {
      const saved: string[] = [];
      const [id, setId] = createSignal('first');
      render(() => (
        <Show when={id()} keyed>
          {(conversationId) => <Composer conversationId={conversationId} runState="idle" onSend={async () => true} onStop={() => undefined} onDraft={(text) => saved.push(`${conversationId}:${text}`)} />}
        </Show>
      ));
      fireEvent.input(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Half a thought' } });
      setId('second'); // the view switches before the quiet period ends: the text is saved at once, not dropped
      expect(saved).toEqual(['first:Half a thought']);
      expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('');
      setId('first');
      expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('Half a thought');
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not save the draft of a text being sent, however slow the send (its echo filled the emptied box again)', async () => {
    vi.useFakeTimers();
    try {
      const saved: string[] = [];
      let finishSend: (sent: boolean) => void = () => undefined;
      const onSend = vi.fn(() => new Promise<boolean>((resolve) => (finishSend = resolve)));
      render(() => <Composer conversationId="slow" runState="idle" onSend={onSend} onStop={() => undefined} onDraft={(text) => saved.push(text)} />);
      const textbox = screen.getByRole('textbox', { name: 'Message' });
      fireEvent.input(textbox, { target: { value: 'Plan my project' } });
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
      await vi.advanceTimersByTimeAsync(2000); // the worker is slow to answer: longer than the draft's quiet period
      expect(saved).toEqual([]);
      finishSend(true);
      await vi.advanceTimersByTimeAsync(0);
      expect(textbox).toHaveValue('');
      await vi.advanceTimersByTimeAsync(2000);
      expect(saved).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('saves the draft after all when the send failed', async () => {
    vi.useFakeTimers();
    try {
      const saved: string[] = [];
      render(() => <Composer conversationId="failing" runState="idle" onSend={async () => false} onStop={() => undefined} onDraft={(text) => saved.push(text)} />);
      const textbox = screen.getByRole('textbox', { name: 'Message' });
      fireEvent.input(textbox, { target: { value: 'Keep me' } });
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
      await vi.advanceTimersByTimeAsync(2000);
      expect(textbox).toHaveValue('Keep me');
      expect(saved).toEqual(['Keep me']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the draft stored with the conversation (after a reload)', () => {
    render(() => <Composer conversationId="stored" storedDraft="From before the reload" runState="idle" onSend={async () => true} onStop={() => undefined} />);
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('From before the reload');
  });
});
