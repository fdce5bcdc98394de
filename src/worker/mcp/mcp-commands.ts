import type { CommandOf, CommandResult, CommandType } from '../../schema/commands';
import type { McpServers } from './lazy-mcp-hub';

type McpCommandType = Extract<CommandType, `mcp.${string}`>;

/** The handlers of the `mcp.*` commands, spread into the command handler's table. */
type McpHandlers = { [T in McpCommandType]: (command: CommandOf<T>) => Promise<CommandResult<T>> };

/** Every change reaches the UI as an `mcp-servers-changed` event from the hub; the replies are for the caller. */
export function createMcpHandlers(hub: McpServers): McpHandlers {
  return {
    'mcp.list': () => hub.listServers(),
    'mcp.save': (command) => hub.saveServer(command.server),
    'mcp.remove': async (command) => {
      await hub.removeServer(command.serverId);
      return { serverId: command.serverId };
    },
    'mcp.connect': (command) => hub.connect(command.serverId),
    'mcp.setPermission': (command) => hub.setPermission(command.serverId, command.toolName, command.permission),
    'mcp.prepareCall': async (command) => ({ connected: await hub.prepareCall(command.serverId) }),
  };
}
