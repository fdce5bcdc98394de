import { mergeTests } from '@playwright/test';
import { messageLog, send } from './fixtures';
import { addMcpServer, openMcpSettings, test as mcpTest } from './mcp-servers';
import { addProfile, chatRequests, conversationWithProfile, expect, expectChatRequestCount, profileFor, test as providerTest } from './provider-helpers';

// An Allow readies the model server's connection while the tool runs (src/worker/providers/ready-connection.ts): the
// next model request must go out on the socket that HEAD opened or kept, not on one of its own. A real MCP server
// (server-everything behind the counting proxy) and a real provider server, so the browser's own socket pools decide.

const test = mergeTests(mcpTest, providerTest);

test('after an Allow, the next model request goes out on the socket the readying HEAD used', async ({ page, mcp, provider }) => {
  await page.goto('/');
  const profile = profileFor(provider, 'OpenAI-compatible');
  await addProfile(page, profile);
  await page.goto('/');
  await openMcpSettings(page);
  await addMcpServer(page, { name: 'everything', url: mcp.counted.url });
  await conversationWithProfile(page, profile.name);
  provider.enqueue({ text: 'Calling the tool.', toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'hi' } }] }, { text: 'The tool echoed.' });
  await send(page, 'go');
  const card = page.getByRole('group', { name: 'Tool call: mcp__everything__echo', exact: true });
  await expect(card).toBeVisible();

  // The tool's call waits at the proxy until the HEAD has been answered, so the model request can only come after it.
  const release = mcp.counted.holdCalls();
  try {
    await card.getByRole('button', { name: 'Allow', exact: true }).click();
    await expect.poll(() => provider.requests.some((request) => request.method === 'HEAD' && request.answeredAt !== undefined), { message: 'the readying HEAD answered' }).toBe(true);
  } finally {
    release();
  }
  await expect(messageLog(page)).toContainText('The tool echoed.');
  await expectChatRequestCount(provider, 2);
  const heads = provider.requests.filter((request) => request.method === 'HEAD');
  expect(heads).toHaveLength(1);
  expect(chatRequests(provider)[1]!.socket).toBe(heads[0]!.socket);
});
