import { describe, expect, it } from 'vitest';
import { BUILT_IN_TOOL_INPUTS, BUILT_IN_TOOLS, toolInputSchema } from '../../src/core/tools/tools';

// The built-in tools' JSON schemas are data (the converter stays off the worker's first reply): they must be exactly
// what zod makes of the inputs the tools check with. After changing an input, `npx vitest run -u` writes them again.
describe('the built-in tools as providers see them', () => {
  it('declare the JSON schema zod makes of each input', async () => {
    const schemas = Object.fromEntries(Object.entries(BUILT_IN_TOOL_INPUTS).map(([name, input]) => [name, toolInputSchema(input)]));
    await expect(`${JSON.stringify(schemas, null, 2)}\n`).toMatchFileSnapshot('../../src/core/tools/built-in-tool-schemas.json');
    for (const tool of BUILT_IN_TOOLS) expect(tool.inputSchema, tool.name).toEqual(schemas[tool.name]);
  });
});
