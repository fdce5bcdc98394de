import type { ToolApprovalBinding, ToolCallBlock } from '../../schema/messages/blocks';
import type { Tool } from '../tools/tool';

/**
 * What an approval was given for: the tool's model-facing name, its server's identity (the URL's origin; empty for a
 * built-in tool) and a SHA-256 of the exact arguments. Execution checks it against the stored call and the tool as
 * configured now, so a record edited in place (an import, a migration, a sync) cannot run another call than the one
 * the user saw. Synchronous: it is computed inside the resolving IndexedDB transaction, which must await nothing else.
 */
export function bindingFor(block: Pick<ToolCallBlock, 'toolName' | 'args' | 'source'>): ToolApprovalBinding {
  return { toolName: block.toolName, origin: block.source?.origin ?? '', argsHash: argumentsDigest(block.args) };
}

/** Whether a stored call's approval was given for exactly this call of exactly this tool, as configured now. */
export function approvalHolds(block: ToolCallBlock, tool: Pick<Tool, 'name' | 'source'>): boolean {
  const binding = block.binding;
  if (!binding) return false;
  return binding.toolName === block.toolName && binding.toolName === tool.name && binding.origin === (tool.source?.origin ?? '') && binding.argsHash === argumentsDigest(block.args);
}

/** SHA-256 (hex) of the arguments as canonical JSON: object keys sorted, so equal values always hash alike. */
export function argumentsDigest(args: unknown): string {
  return sha256Hex(new TextEncoder().encode(canonicalJson(args)));
}

/** JSON with every object's keys sorted; `undefined` (absent arguments) is written as `null`. */
export function canonicalJson(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * SHA-256's round constants (FIPS 180-4, 4.2.2): the first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes, computed rather than listed, since 64 random-looking words are a kilobyte of gzip in the worker's
 * code for a first reply. Each lies at least 0.02 from a whole number once scaled, thousands of times any error of
 * `Math.cbrt`; the digest is tested against node's (a wrong word would change it).
 */
const ROUND_CONSTANTS = roundConstants();

function roundConstants(): Uint32Array {
  const constants = new Uint32Array(64);
  let found = 0;
  for (let candidate = 2; found < 64; candidate += 1) {
    let prime = true;
    for (let divisor = 2; divisor * divisor <= candidate; divisor += 1) if (candidate % divisor === 0) prime = false;
    if (!prime) continue;
    const root = Math.cbrt(candidate);
    constants[found++] = (root - Math.floor(root)) * 2 ** 32;
  }
  return constants;
}

/**
 * SHA-256 (FIPS 180-4) of `bytes`, as hex. WebCrypto's digest is asynchronous and cannot run inside a transaction;
 * the arguments are at most a few hundred kilobytes, so a plain implementation is fast enough. Tested against node's.
 */
export function sha256Hex(bytes: Uint8Array): string {
  const hash = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const paddedLength = Math.ceil((bytes.length + 9) / 64) * 64;
  const padded = new Uint8Array(paddedLength);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bitLength = bytes.length * 8;
  view.setUint32(paddedLength - 8, Math.floor(bitLength / 0x1_0000_0000));
  view.setUint32(paddedLength - 4, bitLength >>> 0);
  const words = new Uint32Array(64);
  for (let offset = 0; offset < paddedLength; offset += 64) {
    for (let index = 0; index < 16; index += 1) words[index] = view.getUint32(offset + index * 4);
    for (let index = 16; index < 64; index += 1) {
      const a = words[index - 15]!;
      const b = words[index - 2]!;
      const s0 = rotate(a, 7) ^ rotate(a, 18) ^ (a >>> 3);
      const s1 = rotate(b, 17) ^ rotate(b, 19) ^ (b >>> 10);
      words[index] = (words[index - 16]! + s0 + words[index - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = hash as unknown as [number, number, number, number, number, number, number, number];
    for (let index = 0; index < 64; index += 1) {
      const t1 = (h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + ROUND_CONSTANTS[index]! + words[index]!) >>> 0;
      const t2 = ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    hash[0] = hash[0]! + a;
    hash[1] = hash[1]! + b;
    hash[2] = hash[2]! + c;
    hash[3] = hash[3]! + d;
    hash[4] = hash[4]! + e;
    hash[5] = hash[5]! + f;
    hash[6] = hash[6]! + g;
    hash[7] = hash[7]! + h;
  }
  return Array.from(hash, (word) => word.toString(16).padStart(8, '0')).join('');
}

function rotate(value: number, bits: number): number {
  return (value >>> bits) | (value << (32 - bits));
}
