import { isObjectSchema, isPlainObject } from '../../core/requests/json-schema-form';
import type { ToolAnnotations } from '../../schema/messages/blocks';
import type { ListedTool } from './mcp-connection';
import { disambiguate, mcpToolName } from './tool-names';

/** A tool of a connected server, checked. */
export interface ServerTool {
  name: string;
  serverToolName: string;
  title?: string;
  description: string;
  annotations?: ToolAnnotations;
  inputSchema: Record<string, unknown>;
}

/** The listed tools that can be offered, named for the model, and a sentence for each that cannot. */
export function checkTools(serverName: string, listed: readonly ListedTool[]): { tools: ServerTool[]; problems: string[] } {
  const tools: ServerTool[] = [];
  const problems: string[] = [];
  const used = new Set<string>();
  for (const entry of listed) {
    if (typeof entry.name !== 'string' || entry.name === '') {
      problems.push('The server listed a tool without a name; it is left out.');
      continue;
    }
    if (!isObjectSchema(entry.inputSchema)) {
      problems.push(`The tool "${entry.name}" has an invalid input schema (it must be a JSON Schema of type "object"); it is not offered to the model.`);
      continue;
    }
    let name = mcpToolName(serverName, entry.name);
    if (used.has(name)) name = disambiguate(name, entry.name);
    used.add(name);
    const annotations = readAnnotations(entry.annotations);
    const title = typeof entry.title === 'string' ? entry.title : annotations?.title;
    tools.push({
      name,
      serverToolName: entry.name,
      ...(title ? { title } : {}),
      description: typeof entry.description === 'string' ? entry.description : (title ?? ''),
      ...(annotations ? { annotations } : {}),
      inputSchema: entry.inputSchema,
    });
  }
  return { tools, problems };
}

function readAnnotations(value: unknown): ToolAnnotations | undefined {
  if (!isPlainObject(value)) return undefined;
  const annotations: ToolAnnotations = {};
  if (typeof value.title === 'string') annotations.title = value.title;
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    if (typeof value[key] === 'boolean') annotations[key] = value[key];
  }
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}
