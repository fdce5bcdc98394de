import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { McpHub } from '../../src/worker/mcp/mcp-hub';
import { openParleyDatabase } from '../../src/worker/store/database';
import { WireError } from '../../src/schema/wire-error';
import { uniqueDatabaseName } from './host-harness';

describe('adding an MCP server whose name collides with another once normalised', () => {
  it('is refused, saying which server already uses those tool names', async () => {
    const database = await openParleyDatabase(uniqueDatabaseName());
    let counter = 0;
    const hub = new McpHub({ database, newId: () => `server-${(counter += 1)}`, onChange: () => {} });
    try {
      await hub.saveServer({ name: 'Everything', url: 'http://127.0.0.1:9/mcp' });
      const refused = await hub.saveServer({ name: 'EVERYTHING!', url: 'http://127.0.0.1:10/mcp' }).then(() => undefined, (error: unknown) => error);
      expect(refused).toBeInstanceOf(WireError);
      expect(refused).toMatchObject({ code: 'invalid_command', reason: 'server_name_taken', params: { name: 'Everything', prefix: 'mcp__everything__' }, field: 'server.name' });
      expect(await hub.listServers()).toHaveLength(1);
    } finally {
      await hub.close();
      database.close();
    }
  });
});
