import type { ToolSpec } from '../../../core/run/model';

/**
 * A GBNF grammar (llama.cpp's grammar format) that allows exactly one Hermes-format tool call to one of `tools`, with
 * arguments that satisfy each tool's JSON schema: required properties only, strings of letters, digits and spaces
 * (first character not a space, at least 3 characters where the schema allows), arrays and strings capped short.
 * Shorter than the schema allows, never outside it: this is what lets even a tiny or random model produce a call the
 * validator accepts.
 */
export function toolCallGrammar(tools: readonly ToolSpec[]): string {
  const rules = new Map<string, string>();
  const names = tools.map((tool, index) => {
    const args = schemaRule(tool.inputSchema, `tool${index}-args`, rules);
    const rule = `tool${index}`;
    rules.set(rule, `"{\\"name\\": \\"" ${literal(tool.name)} "\\", \\"arguments\\": " ${args} "}"`);
    return rule;
  });
  const header = `root ::= "<tool_call>\\n" (${names.join(' | ')}) "\\n</tool_call>"`;
  return [header, ...[...rules].map(([name, body]) => `${name} ::= ${body}`)].join('\n');
}

const MAX_STRING = 24;
const MAX_ITEMS = 2;

function schemaRule(schema: Record<string, unknown>, name: string, rules: Map<string, string>): string {
  const enumValues = schema.enum;
  if (Array.isArray(enumValues) && enumValues.length > 0) {
    rules.set(name, enumValues.map((value) => `"${escape(JSON.stringify(value))}"`).join(' | '));
    return name;
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const members = Object.entries(properties)
        .filter(([key]) => required.has(key))
        .map(([key, value], index) => {
          const rule = schemaRule(value, `${name}-${index}`, rules);
          return `"\\"${escape(key)}\\": " ${rule}`;
        });
      rules.set(name, members.length === 0 ? '"{}"' : `"{" ${members.join(' ", " ')} "}"`);
      return name;
    }
    case 'array': {
      const item = schemaRule((schema.items ?? {}) as Record<string, unknown>, `${name}-item`, rules);
      const min = Math.max(1, numberOr(schema.minItems, 1));
      const max = Math.max(min, Math.min(numberOr(schema.maxItems, MAX_ITEMS), MAX_ITEMS));
      rules.set(name, `"[" ${item} (", " ${item}){${min - 1},${max - 1}} "]"`);
      return name;
    }
    case 'boolean':
      rules.set(name, '"true" | "false"');
      return name;
    case 'integer':
    case 'number':
      rules.set(name, '[1-9] [0-9]{0,2}');
      return name;
    default: {
      const maxLength = Math.min(numberOr(schema.maxLength, MAX_STRING), MAX_STRING);
      const minLength = Math.min(Math.max(numberOr(schema.minLength, 1), 3), maxLength);
      rules.set(name, `"\\"" [a-zA-Z0-9] [a-zA-Z0-9 ]{${Math.max(0, minLength - 1)},${Math.max(0, maxLength - 1)}} "\\""`);
      return name;
    }
  }
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function literal(text: string): string {
  return `"${escape(text)}"`;
}

/** Escapes text for a GBNF double-quoted literal. */
function escape(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
