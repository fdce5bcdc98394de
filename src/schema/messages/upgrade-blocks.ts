import type { ApprovalRequest, Block, ElicitationRequest, QuestionRequest, ToolCallBlock } from './blocks';

// The request blocks as the build before one request shape stored, exported and synced them (database version 4; see
// docs/architecture.md, "Requests"). Read only here, to upgrade them: nothing writes them any more.

interface LegacyApproval {
  kind: 'permission' | 'rerun';
  status: 'pending' | 'success' | 'denied';
  requestedAt?: number;
  resolution?: ApprovalRequest['resolution'];
  reason?: string;
  originalArgs?: unknown;
  resolvedAt?: number;
  binding?: ToolCallBlock['binding'];
  resolvedOn?: ApprovalRequest['resolvedOn'];
}

type LegacyToolCall = ToolCallBlock & { approval?: LegacyApproval };

interface LegacyQuestion extends Pick<QuestionRequest, 'status' | 'resolution' | 'draft' | 'resolvedAt' | 'resolvedOn'> {
  type: 'question_request';
  toolCallId: string;
  questions: QuestionRequest['payload']['questions'];
  answers?: NonNullable<QuestionRequest['response']>['answers'];
  answerMessageId?: string;
  toolResult?: string;
}

interface LegacyElicitation extends Pick<ElicitationRequest, 'requestId' | 'toolCallId' | 'status' | 'resolution' | 'resolvedAt' | 'resolvedOn'> {
  type: 'elicitation_request';
  serverName: string;
  message: string;
  requestedSchema: Record<string, unknown>;
  content?: Record<string, unknown>;
}

/** Only the fields that are set: the stored records never held `undefined`, and neither do the upgraded ones. */
function defined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}

function upgradeQuestion(block: LegacyQuestion): QuestionRequest {
  const response = defined({ answers: block.answers, answerMessageId: block.answerMessageId, toolResult: block.toolResult });
  return defined({
    type: 'request',
    kind: 'question',
    requestId: block.toolCallId,
    toolCallId: block.toolCallId,
    status: block.status,
    payload: { questions: block.questions },
    resolution: block.resolution,
    response: Object.keys(response).length > 0 ? response : undefined,
    draft: block.draft,
    resolvedAt: block.resolvedAt,
    resolvedOn: block.resolvedOn,
  });
}

function upgradeElicitation(block: LegacyElicitation): ElicitationRequest {
  return defined({
    type: 'request',
    kind: 'elicitation',
    requestId: block.requestId,
    toolCallId: block.toolCallId,
    status: block.status,
    payload: { serverName: block.serverName, message: block.message, requestedSchema: block.requestedSchema },
    resolution: block.resolution,
    response: block.content !== undefined ? { content: block.content } : undefined,
    resolvedAt: block.resolvedAt,
    resolvedOn: block.resolvedOn,
  });
}

/** A call with its nested approval becomes the call (keeping its binding and the model's arguments) and the request beside it. */
function upgradeToolCall(block: LegacyToolCall): Block[] {
  const { approval, ...call } = block;
  if (!approval) return [block];
  const upgraded: ToolCallBlock = defined({
    ...call,
    originalArgs: approval.originalArgs,
    binding: approval.status === 'success' ? approval.binding : undefined,
  });
  const request: ApprovalRequest = defined({
    type: 'request',
    kind: approval.kind,
    requestId: block.toolCallId,
    toolCallId: block.toolCallId,
    status: approval.status,
    payload: { toolName: block.toolName },
    resolution: approval.resolution,
    response: approval.reason !== undefined ? { reason: approval.reason } : undefined,
    requestedAt: approval.requestedAt,
    resolvedAt: approval.resolvedAt,
    resolvedOn: approval.resolvedOn,
  });
  return [upgraded, request];
}

function upgradeBlock(block: unknown): unknown[] {
  if (typeof block !== 'object' || block === null) return [block];
  switch ((block as { type?: unknown }).type) {
    case 'question_request':
      return [upgradeQuestion(block as LegacyQuestion)];
    case 'elicitation_request':
      return [upgradeElicitation(block as LegacyElicitation)];
    case 'tool_call':
      return 'approval' in block ? upgradeToolCall(block as LegacyToolCall) : [block];
    default:
      return [block];
  }
}

/**
 * A message as any build wrote it, with its request blocks in today's one shape: the database's migration 5, an
 * import and a record received by sync all call this, before validating. A message already in today's shape is
 * returned as it is; anything that is not a message passes through for validation to refuse. Fields it does not
 * know are left for validation too.
 */
export function upgradeBlocks<M>(message: M): M {
  if (typeof message !== 'object' || message === null) return message;
  const blocks = (message as { blocks?: unknown }).blocks;
  if (!Array.isArray(blocks) || !blocks.some(isLegacyRequest)) return message;
  return { ...message, blocks: blocks.flatMap(upgradeBlock) };
}

function isLegacyRequest(block: unknown): boolean {
  if (typeof block !== 'object' || block === null) return false;
  const type = (block as { type?: unknown }).type;
  return type === 'question_request' || type === 'elicitation_request' || (type === 'tool_call' && 'approval' in block);
}
