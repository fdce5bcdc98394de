import * as z from '../../schema/zod-mini';
import type { ToolSpec } from '../run/model';
import { parseQuestionInput, QUESTION_TOOL_DESCRIPTION, QUESTION_TOOL_NAME } from '../requests/question-tool';
import type { ArgumentsCheck, Tool } from './tool';
import { QuestionToolInput } from '../../schema/forms/question';
import BUILT_IN_TOOL_SCHEMAS from './built-in-tool-schemas.json';

/** A zod input's JSON schema, as providers are given it (without `$schema`). */
export function toolInputSchema(input: z.core.$ZodType): Record<string, unknown> {
  const inputSchema = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete inputSchema.$schema;
  return inputSchema;
}

/** A tool defined by a zod schema: one source for its JSON schema and its check. */
export function zodTool(definition: { name: string; description: string; input: z.core.$ZodType; execute: Tool['execute'] }): Tool {
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: toolInputSchema(definition.input),
    permission: 'allow',
    check: (args) => checkWithZod(definition.name, definition.input, args),
    execute: definition.execute,
  };
}

/** Parses with zod; the error names each field and asks the model to rewrite the input. */
function checkWithZod(name: string, schema: z.core.$ZodType, args: unknown): ArgumentsCheck {
  const parsed = z.safeParse(schema, args ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ');
  return { ok: false, error: `Invalid input for ${name}: ${problems}. Please rewrite the input so it satisfies the expected schema.` };
}

/** The built-in tools' inputs. Their JSON schemas are built-in-tool-schemas.json, made from these (built-in-tool-schemas.test.ts keeps it so). */
export const BUILT_IN_TOOL_INPUTS = {
  /** The question tool checks its own input (parseQuestionInput): lenient where it is safe. */
  question: QuestionToolInput,
  get_current_time: z.looseObject({}),
};

// The built-in tools carry their JSON schemas as data, not as z.toJSONSchema's output: the converter (about 7 KB
// gzipped) would otherwise load with the worker's first reply. zodTool, for other tools, still makes them from zod.
const currentTime: Tool = {
  name: 'get_current_time',
  description: "Returns the current date and time in ISO 8601 (UTC); the user's time zone offset is unknown.",
  inputSchema: BUILT_IN_TOOL_SCHEMAS.get_current_time,
  permission: 'allow',
  check: (args) => checkWithZod('get_current_time', BUILT_IN_TOOL_INPUTS.get_current_time, args),
  async execute(_input, context) {
    return { text: new Date(context.now()).toISOString() };
  },
};

/** The question tool: an ordinary tool whose every call asks the user (see `Tool.ask`). */
export const QUESTION_TOOL: Tool = {
  name: QUESTION_TOOL_NAME,
  description: QUESTION_TOOL_DESCRIPTION,
  inputSchema: BUILT_IN_TOOL_SCHEMAS.question,
  permission: 'allow',
  countsInvalid: true,
  check(args) {
    const parsed = parseQuestionInput(args);
    return parsed.ok ? { ok: true, value: parsed.value } : { ok: false, error: parsed.error };
  },
  ask(args, toolCallId) {
    const { questions } = args as { questions: import('../../schema/forms/question').Question[] };
    return { type: 'request', kind: 'question', requestId: toolCallId, toolCallId, status: 'pending', payload: { questions } };
  },
  async execute() {
    throw new Error('The question tool asks the user; it is never executed.');
  },
};

/** The tools every conversation gets besides those of MCP servers. Nothing a model sends is ever evaluated as code. */
export const BUILT_IN_TOOLS: readonly Tool[] = [QUESTION_TOOL, currentTime];

/** Every tool as providers declare it (a "Never" tool is not offered). */
export function toolSpecs(tools: readonly Tool[] = BUILT_IN_TOOLS): ToolSpec[] {
  return tools.filter((tool) => tool.permission !== 'never').map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, ...(tool.ask ? { asksUser: true } : {}) }));
}
