/**
 * Reads a GGUF file's header from a Blob and checks that the file holds all its tensor data: a download cut short
 * (a proxy, a full disk, a server that lied about Content-Length) is caught before the engine crashes on it.
 */

type GgufProblem = { code: 'not_gguf'; detail: string } | { code: 'truncated'; detail: string };

const MAGIC = 0x46554747; // "GGUF" as a little-endian u32

/** True when the first four bytes are "GGUF". */
export function hasGgufMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) === MAGIC;
}

/** Block size (elements) and bytes per block of the ggml tensor types; a type not listed skips the size check. */
const TYPE_SIZES: Record<number, [number, number]> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  9: [32, 36], // Q8_1
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  15: [256, 292], // Q8_K
  24: [1, 1], // I8
  25: [1, 2], // I16
  26: [1, 4], // I32
  27: [1, 8], // I64
  28: [1, 8], // F64
  30: [1, 2], // BF16
};

/**
 * Checks one GGUF file (or one split): magic, a readable header, and that the last tensor's data ends inside the file.
 * Returns undefined when the file is whole.
 */
export async function checkGguf(file: Blob): Promise<GgufProblem | undefined> {
  // Headers with a large vocabulary take a few MB; read more only when needed.
  let headerBytes = Math.min(file.size, 8 * 1024 * 1024);
  for (;;) {
    const bytes = new Uint8Array(await file.slice(0, headerBytes).arrayBuffer());
    if (!hasGgufMagic(bytes)) return { code: 'not_gguf', detail: 'the file does not start with the GGUF signature' };
    try {
      const dataEnd = readDataEnd(bytes);
      if (dataEnd === undefined) return undefined;
      if (dataEnd > file.size) return { code: 'truncated', detail: `the file has ${file.size} bytes but its tensors need ${dataEnd}` };
      return undefined;
    } catch (error) {
      if (error instanceof RangeError && headerBytes < file.size) {
        headerBytes = Math.min(file.size, headerBytes * 4);
        continue;
      }
      return { code: 'truncated', detail: 'its header is cut short' };
    }
  }
}

/** Where the tensor data ends, from the header alone; undefined when a tensor type's size is unknown. */
function readDataEnd(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let position = 4;
  const u32 = () => {
    const value = view.getUint32(position, true);
    position += 4;
    return value;
  };
  const u64 = () => {
    const value = Number(view.getBigUint64(position, true));
    position += 8;
    return value;
  };
  const skip = (count: number) => {
    position += count;
    if (position > bytes.length) throw new RangeError('header beyond the bytes read');
  };
  const string = () => {
    const length = u64();
    const start = position;
    skip(length);
    return new TextDecoder().decode(bytes.subarray(start, start + length));
  };
  const fixed: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
  const skipValue = (type: number): void => {
    if (type === 8) string();
    else if (type === 9) {
      const elementType = u32();
      const count = u64();
      if (fixed[elementType] !== undefined) skip(fixed[elementType] * count);
      else for (let index = 0; index < count; index++) skipValue(elementType);
    } else if (fixed[type] !== undefined) skip(fixed[type]);
    else throw new Error(`unknown metadata type ${type}`);
  };

  const version = u32();
  if (version < 2) throw new Error('unsupported GGUF version');
  const tensorCount = u64();
  const metadataCount = u64();
  let alignment = 32;
  for (let index = 0; index < metadataCount; index++) {
    const key = string();
    const type = u32();
    if (key === 'general.alignment' && type === 4) alignment = view.getUint32(position, true);
    skipValue(type);
  }
  let end = 0;
  let known = true;
  for (let index = 0; index < tensorCount; index++) {
    string();
    const dimensions = u32();
    let elements = 1;
    for (let dimension = 0; dimension < dimensions; dimension++) elements *= u64();
    const type = u32();
    const offset = u64();
    const size = TYPE_SIZES[type];
    if (!size) known = false;
    else end = Math.max(end, offset + (elements / size[0]) * size[1]);
  }
  const dataStart = Math.ceil(position / alignment) * alignment;
  return known ? dataStart + end : undefined;
}
