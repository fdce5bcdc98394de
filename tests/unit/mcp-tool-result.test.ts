import { describe, expect, it } from 'vitest';
import { toToolOutput, truncateForModel } from '../../src/worker/mcp/tool-result';

describe('MCP tool results for the model', () => {
  it('joins text, describes images without inlining them, links resources, shows embedded text', () => {
    const output = toToolOutput({
      content: [
        { type: 'text', text: 'Here is the chart.' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'resource_link', uri: 'https://example.com/report.pdf', name: 'report.pdf', mimeType: 'application/pdf' },
        { type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' } },
        { type: 'resource', resource: { uri: 'file:///logo.png', mimeType: 'image/png', blob: 'AAAA' } },
      ],
    });
    expect(output).toEqual({
      text: [
        'Here is the chart.',
        '[image: image/png, 8 bytes]',
        '[link: report.pdf <https://example.com/report.pdf> (application/pdf)]',
        '[resource <file:///notes.md> (text/markdown)]\n# Notes',
        '[resource <file:///logo.png>: image/png, 3 bytes, not shown]',
      ].join('\n\n'),
    });
  });

  it('adds structured content as JSON unless a text part already carries it', () => {
    expect(toToolOutput({ content: [], structuredContent: { sum: 42 } }).text).toBe('{\n  "sum": 42\n}');
    expect(toToolOutput({ content: [{ type: 'text', text: '{"sum":42}' }], structuredContent: { sum: 42 } }).text).toBe('{"sum":42}');
    expect(toToolOutput({ content: [{ type: 'text', text: 'Done.' }], structuredContent: { sum: 42 } }).text).toBe('Done.\n\nStructured result:\n{\n  "sum": 42\n}');
  });

  it('keeps isError, and says when there was nothing', () => {
    expect(toToolOutput({ content: [{ type: 'text', text: 'No such file' }], isError: true })).toEqual({ text: 'No such file', isError: true });
    expect(toToolOutput({ content: [] })).toEqual({ text: '(The tool returned no content.)' });
  });

  it('truncates with a note, never silently, and never splits a character', () => {
    expect(truncateForModel('abcdef', 4)).toBe('abcd\n\n[truncated: showed 4 of 6 characters]');
    expect(truncateForModel('abc😀def', 4)).toBe('abc\n\n[truncated: showed 3 of 8 characters]');
    expect(truncateForModel('short', 10)).toBe('short');
  });
});
