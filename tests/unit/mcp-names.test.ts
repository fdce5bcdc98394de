import { describe, expect, it } from 'vitest';
import { disambiguate, isMcpToolName, mcpToolName, normalizeServerName, parseMcpToolName, unknownMcpToolText } from '../../src/worker/mcp/tool-names';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('MCP tool names', () => {
  it('are mcp__<server>__<tool>, the server lower-cased, other characters replaced', () => {
    expect(mcpToolName('Everything', 'get-sum')).toBe('mcp__everything__get-sum');
    expect(mcpToolName('My Files (work)', 'read.file')).toBe('mcp__my_files_work__read_file');
    expect(mcpToolName('GitHub', 'createIssue')).toBe('mcp__github__createIssue');
    expect(mcpToolName('数据', '查询')).toBe('mcp__server____');
    expect(parseMcpToolName(mcpToolName('My Files (work)', 'read.file'))).toEqual({ server: 'my_files_work', tool: 'read_file' });
  });

  it('never put "__" inside the server part, so parsing finds the tool', () => {
    expect(normalizeServerName('a__b')).toBe('a_b');
    expect(parseMcpToolName(mcpToolName('a__b', 'c__d'))).toEqual({ server: 'a_b', tool: 'c__d' });
  });

  it('stay within 64 characters and unique when cut', () => {
    const long = 'x'.repeat(80);
    const first = mcpToolName('A very long server name indeed', `${long}1`);
    const second = mcpToolName('A very long server name indeed', `${long}2`);
    expect(first).toMatch(VALID);
    expect(second).toMatch(VALID);
    expect(first).not.toBe(second);
    expect(parseMcpToolName(first)).toBeDefined();
    expect(disambiguate('mcp__s__read_file', 'read.file')).toMatch(VALID);
    expect(disambiguate('mcp__s__read_file', 'read.file')).not.toBe(disambiguate('mcp__s__read_file', 'read-file'));
  });

  it('recognise malformed names', () => {
    expect(isMcpToolName('mcp__everything')).toBe(true);
    expect(parseMcpToolName('mcp__everything')).toBeUndefined();
    expect(parseMcpToolName('mcp____echo')).toBeUndefined();
    expect(parseMcpToolName('mcp__Everything__echo')).toBeUndefined();
    expect(parseMcpToolName('mcp__every thing__echo')).toBeUndefined();
    expect(isMcpToolName('get_current_time')).toBe(false);
  });

  it('explain an unknown or malformed name with the tools there are', () => {
    const available = ['mcp__everything__echo', 'mcp__everything__get-sum', 'question'];
    expect(unknownMcpToolText('mcp__everything', available)).toBe(
      '"mcp__everything" is not a valid MCP tool name (they look like mcp__<server>__<tool>). The MCP tools available are: mcp__everything__echo, mcp__everything__get-sum.',
    );
    expect(unknownMcpToolText('mcp__everything__nope', available)).toContain('The MCP server "everything" has no tool "nope"');
    expect(unknownMcpToolText('mcp__other__echo', [])).toBe('There is no connected MCP server "other". No MCP tools are available now.');
  });
});
