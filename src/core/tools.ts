import { z } from 'zod';
import type { ToolSpec } from './model';
import { questionToolSpec } from './question-tool';

/** A tool the loop runs itself. `execute` returns the result text the model reads; a throw becomes an error result. */
export interface ExecutableTool {
  name: string;
  description: string;
  input: z.ZodType;
  execute(input: unknown, context: { now: () => number; signal: AbortSignal }): Promise<string>;
}

const currentTime: ExecutableTool = {
  name: 'get_current_time',
  description: "Returns the current date and time in ISO 8601 (UTC) and the user's time zone offset is unknown.",
  input: z.object({}).loose(),
  async execute(_input, context) {
    return new Date(context.now()).toISOString();
  },
};

/** The tools every conversation gets besides `question`. Nothing a model sends is ever evaluated as code. */
export const BUILT_IN_TOOLS: readonly ExecutableTool[] = [currentTime];

/** Every tool as providers declare it; the question tool comes first. */
export function toolSpecs(tools: readonly ExecutableTool[] = BUILT_IN_TOOLS): ToolSpec[] {
  return [
    questionToolSpec(),
    ...tools.map((tool) => {
      const inputSchema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
      delete inputSchema.$schema;
      return { name: tool.name, description: tool.description, inputSchema };
    }),
  ];
}
