import type { Block, QuestionRequestBlock, ToolCallBlock } from '../schema/blocks';
import { parseQuestionInput, QUESTION_TOOL_NAME } from './question-tool';
import type { ExecutableTool } from './tools';

export interface ReceivedToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export interface ToolCallsOutcome {
  /** Blocks to append to the assistant message, in call order. */
  blocks: Block[];
  /** The valid question that pauses the run, if any. */
  question?: QuestionRequestBlock;
  /** Number of question calls that were invalid (the model gets an error result and the loop continues). */
  invalidQuestions: number;
}

export const AFTER_QUESTION_TEXT =
  'Not run: the question tool must be the only or the last tool call of a turn, so calls after it are refused. Call this tool again after the user answers, if it is still needed.';

export const STOPPED_BEFORE_TOOL_TEXT = 'Not run: the user stopped the run before this tool call.';

/**
 * Applies the rules of a step's tool calls: calls before a question run in order; a valid question pauses; any call after
 * it (a second question too) is refused with an error result. An invalid question does not pause.
 */
export async function runToolCalls(
  calls: ReceivedToolCall[],
  tools: readonly ExecutableTool[],
  context: { now: () => number; signal: AbortSignal },
): Promise<ToolCallsOutcome> {
  const outcome: ToolCallsOutcome = { blocks: [], invalidQuestions: 0 };
  let questionSeen = false;
  for (const call of calls) {
    const base = { type: 'tool_call' as const, toolCallId: call.toolCallId, toolName: call.toolName, args: call.input };
    if (questionSeen) {
      outcome.blocks.push({ ...base, status: 'error', result: AFTER_QUESTION_TEXT });
      continue;
    }
    if (context.signal.aborted) {
      outcome.blocks.push({ ...base, status: 'error', result: STOPPED_BEFORE_TOOL_TEXT });
      continue;
    }
    if (call.toolName === QUESTION_TOOL_NAME) {
      const parsed = parseQuestionInput(call.input);
      if (!parsed.ok) {
        outcome.invalidQuestions += 1;
        outcome.blocks.push({ ...base, status: 'error', result: parsed.error });
        continue;
      }
      questionSeen = true;
      outcome.question = {
        type: 'question_request',
        toolCallId: call.toolCallId,
        questions: parsed.value.questions,
        status: 'pending',
      };
      outcome.blocks.push(outcome.question);
      continue;
    }
    outcome.blocks.push(await runTool(base, tools, context));
  }
  return outcome;
}

async function runTool(
  base: Omit<ToolCallBlock, 'status' | 'result'>,
  tools: readonly ExecutableTool[],
  context: { now: () => number; signal: AbortSignal },
): Promise<ToolCallBlock> {
  const tool = tools.find((candidate) => candidate.name === base.toolName);
  if (!tool) {
    const known = [QUESTION_TOOL_NAME, ...tools.map((candidate) => candidate.name)].join(', ');
    return { ...base, status: 'error', result: `Unknown tool "${base.toolName}". Available tools: ${known}.` };
  }
  const input = tool.input.safeParse(base.args ?? {});
  if (!input.success) {
    const problems = input.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ');
    return { ...base, status: 'error', result: `Invalid input for ${tool.name}: ${problems}. Please rewrite the input so it satisfies the expected schema.` };
  }
  try {
    return { ...base, status: 'success', result: await tool.execute(input.data, context) };
  } catch (error) {
    return { ...base, status: 'error', result: `The tool failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
