import { fireEvent, render, screen, within } from '@solidjs/testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationSearchResult } from '../../src/schema/protocol';
import { ConversationSearch, snippetParts } from '../../src/ui/components/ConversationSearch';
import { revealFor } from '../../src/ui/reveal-request';

const hostile = '<img src=x onerror="window.hacked=1"> tomato';

const results: ConversationSearchResult[] = [
  { conversationId: 'c1', title: 'Garden', messageId: 'm1', seq: 4, snippet: { text: 'Which tomatoes grow on a balcony?', ranges: [{ start: 6, end: 14 }] } },
  { conversationId: 'c2', title: hostile, messageId: 'm2', seq: 0, snippet: { text: hostile, ranges: [{ start: hostile.length - 6, end: hostile.length }] } },
  { conversationId: 'c3', title: 'Tomato sauce', snippet: { text: 'Tomato sauce', ranges: [{ start: 0, end: 6 }] } },
];

function setup(search = vi.fn(async (query: string) => (query === 'nothing' ? [] : results))) {
  const picked = vi.fn();
  render(() => <ConversationSearch search={search} onPicked={picked} />);
  return { search, picked, box: screen.getByRole('searchbox', { name: 'Search conversations' }) };
}

describe('ConversationSearch', () => {
  it('shows each result as a link with its matched words in marks drawn from the ranges', async () => {
    const { box } = setup();
    fireEvent.input(box, { target: { value: 'tomato' } });
    const list = await screen.findByRole('list', { name: 'Matching conversations' });
    const links = within(list).getAllByRole('link');
    expect(links).toHaveLength(3);
    expect(links[0]).toHaveAttribute('href', '#/c/c1');
    expect(links[0]).toHaveTextContent('Garden');
    expect([...links[0]!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['tomatoes']);
    // A title match marks the title itself.
    expect([...links[2]!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['Tomato']);
  });

  it('keeps hostile stored text as text', async () => {
    const { box } = setup();
    fireEvent.input(box, { target: { value: 'tomato' } });
    const list = await screen.findByRole('list', { name: 'Matching conversations' });
    expect(list.querySelector('img')).toBeNull();
    expect(within(list).getAllByRole('link')[1]).toHaveTextContent('<img src=x onerror="window.hacked=1"> tomato');
    expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
  });

  it('says when nothing matches, and Esc clears the search', async () => {
    const { box } = setup();
    fireEvent.input(box, { target: { value: 'nothing' } });
    expect(await screen.findByRole('status')).toHaveTextContent('No conversations match');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box).toHaveValue('');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('opening a message result asks its conversation to scroll to that message', async () => {
    const { box, picked } = setup();
    fireEvent.input(box, { target: { value: 'tomato' } });
    const list = await screen.findByRole('list', { name: 'Matching conversations' });
    within(list).getAllByRole('link')[0]!.addEventListener('click', (event) => event.preventDefault());
    fireEvent.click(within(list).getAllByRole('link')[0]!);
    expect(revealFor('c1')).toMatchObject({ seq: 4 });
    expect(picked).toHaveBeenCalled();
  });

  it('cuts a snippet at its ranges, ignoring ranges out of bounds', () => {
    expect(snippetParts({ text: 'abcdef', ranges: [{ start: 1, end: 3 }, { start: 5, end: 99 }] })).toEqual([
      { text: 'a', marked: false },
      { text: 'bc', marked: true },
      { text: 'de', marked: false },
      { text: 'f', marked: true },
    ]);
  });
});
