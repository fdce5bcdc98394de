import { fireEvent, render, screen, waitFor, within } from '@solidjs/testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationSearchResult } from '../../src/schema/protocol';
import { ConversationSearch } from '../../src/ui/conversations/ConversationSearch';
import { snippetParts } from '../../src/ui/conversations/ConversationSearchResults';
import { setLocale } from '../../src/ui/i18n/i18n';
import { revealFor } from '../../src/ui/state/reveal-request';

const hostile = '<img src=x onerror="window.hacked=1"> tomato';

const plain = (text: string) => ({ text, ranges: [] });
const results: ConversationSearchResult[] = [
  { conversationId: 'c1', title: plain('Garden'), best: { messageId: 'm1', seq: 4, snippet: { text: 'Which tomatoes grow on a balcony?', ranges: [{ start: 6, end: 14 }] } }, matchingMessages: 3 },
  { conversationId: 'c2', title: plain(hostile), best: { messageId: 'm2', seq: 0, snippet: { text: hostile, ranges: [{ start: hostile.length - 6, end: hostile.length }] } }, matchingMessages: 1 },
  { conversationId: 'c3', title: { text: 'Tomato sauce', ranges: [{ start: 0, end: 6 }] }, matchingMessages: 0 },
  { conversationId: 'c4', title: { text: 'Tomato soup', ranges: [{ start: 0, end: 6 }] }, best: { messageId: 'm4', seq: 2, snippet: { text: 'More tomato?', ranges: [{ start: 5, end: 11 }] } }, matchingMessages: 1_234 },
];

function setup(search = vi.fn(async (query: string) => (query === 'nothing' ? [] : results)), label = 'Search conversations') {
  const picked = vi.fn();
  render(() => <ConversationSearch search={search} onPicked={picked} />);
  return { search, picked, box: screen.getByRole('searchbox', { name: label }) };
}

describe('ConversationSearch', () => {
  it('shows each result as a link with its matched words in marks drawn from the ranges', async () => {
    const { box } = setup();
    fireEvent.input(box, { target: { value: 'tomato' } });
    const list = await screen.findByRole('list', { name: 'Matching conversations' });
    const links = within(list).getAllByRole('link');
    expect(links).toHaveLength(4);
    expect(links[0]).toHaveAttribute('href', '#/c/c1');
    expect(links[0]).toHaveTextContent('Garden');
    expect([...links[0]!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['tomatoes']);
    // A title match marks the title itself; with a message matching too, both are marked.
    expect([...links[2]!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['Tomato']);
    expect([...links[3]!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['Tomato', 'tomato']);
  });

  it("says how many of each conversation's messages match, by the plural rules of the language", async () => {
    const { box } = setup();
    fireEvent.input(box, { target: { value: 'tomato' } });
    const links = within(await screen.findByRole('list', { name: 'Matching conversations' })).getAllByRole('link');
    expect(links[0]).toHaveTextContent(/3 matching messages$/);
    expect(links[1]).toHaveTextContent(/1 matching message$/);
    expect(links[2]).not.toHaveTextContent(/matching/); // found by its title alone
    expect(links[3]).toHaveTextContent(/1,234 matching messages$/);
  });

  it('says it in Simplified Chinese too', async () => {
    await setLocale('zh-CN');
    try {
      const { box } = setup(undefined, '搜索对话');
      fireEvent.input(box, { target: { value: 'tomato' } });
      const links = within(await screen.findByRole('list', { name: '匹配的对话' })).getAllByRole('link');
      expect(links[0]).toHaveTextContent(/3 条匹配的消息$/);
      expect(links[1]).toHaveTextContent(/1 条匹配的消息$/);
    } finally {
      await setLocale('en');
    }
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

  it('shows "New conversation" for a conversation without a title, or with the English one earlier versions stored', async () => {
    const { box } = setup(vi.fn(async () => [
      { conversationId: 'c9', title: plain(''), best: results[0]!.best, matchingMessages: 1 },
      { conversationId: 'c8', title: plain('New conversation'), best: results[0]!.best, matchingMessages: 1 },
    ]));
    fireEvent.input(box, { target: { value: 'tomato' } });
    const list = await screen.findByRole('list', { name: 'Matching conversations' });
    for (const link of within(list).getAllByRole('link')) expect(link).toHaveTextContent(/^New conversation/);
    await setLocale('zh-CN');
    fireEvent.input(box, { target: { value: 'tomatoes' } });
    await waitFor(() => expect(within(screen.getByRole('list', { name: '匹配的对话' })).getAllByRole('link')[1]).toHaveTextContent(/^新建对话/));
    await setLocale('en');
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
