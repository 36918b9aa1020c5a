/**
 * The classifier's ONNX model run in plain JavaScript: a ClassifierSessionFactory for the CPU that
 * needs no onnxruntime. The model is a small MLP (models/lib/mlp.ts exports it as Sub → Mul →
 * Gemm/Relu … → Softmax, a few thousand multiply-adds); loading onnxruntime-node and opening a
 * session for it costs a cold `vectorize convert` about a third of a second of CPU, the evaluation
 * here a few microseconds.
 *
 * Only that graph's operators are read (Sub, Mul, Add, Gemm, Relu, Softmax on float32 tensors of
 * rank 1 or 2); any other model is refused when it is opened, so a caller can fall back to
 * onnxruntime. Arithmetic is float32 as onnxruntime's: every result rounded with Math.fround, each
 * dot product accumulated in input order with a fused multiply-add, the bias added after, so the
 * probabilities agree with onnxruntime's to about one float32 step (tested), and the class with them.
 */
import { readFile } from 'node:fs/promises';
import type { ClassifierSession, ClassifierSessionFactory } from './index.js';

interface Tensor {
  dims: number[];
  data: Float32Array;
}

interface GraphNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes: Map<string, number>;
}

export interface OnnxMlp {
  input: string;
  output: string;
  initializers: Map<string, Tensor>;
  nodes: GraphNode[];
}

const SUPPORTED_OPS = new Set(['Sub', 'Mul', 'Add', 'Gemm', 'Relu', 'Softmax']);
const FLOAT = 1;

/** One protobuf message's fields: field number, wire type, and the value (a number or the bytes). */
function* protoFields(bytes: Uint8Array): Generator<{ field: number; wire: number; value: number; body: Uint8Array }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const varint = (): number => {
    let value = 0,
      scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new Error('truncated protobuf');
      const byte = bytes[at++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  };
  while (at < bytes.length) {
    const key = varint();
    const field = Math.floor(key / 8),
      wire = key % 8;
    if (wire === 0) yield { field, wire, value: varint(), body: bytes.subarray(0, 0) };
    else if (wire === 2) {
      const length = varint();
      if (at + length > bytes.length) throw new Error('truncated protobuf');
      yield { field, wire, value: length, body: bytes.subarray(at, at + length) };
      at += length;
    } else if (wire === 5) {
      if (at + 4 > bytes.length) throw new Error('truncated protobuf');
      yield { field, wire, value: view.getFloat32(at, true), body: bytes.subarray(at, at + 4) };
      at += 4;
    } else if (wire === 1) {
      if (at + 8 > bytes.length) throw new Error('truncated protobuf');
      yield { field, wire, value: view.getFloat64(at, true), body: bytes.subarray(at, at + 8) };
      at += 8;
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * `count` little-endian float32 values. On a little-endian host the bytes are the array's own
 * memory, copied in one block: the per-value DataView loop ran ~10 ms of a cold `convert` in the
 * interpreter (the model holds ~27 000 weights).
 */
function littleEndianFloats(raw: Uint8Array, count: number): Float32Array {
  // a copy of exactly these bytes (a Buffer's slice() would share the file's whole buffer)
  if (LITTLE_ENDIAN_HOST) return new Float32Array(new Uint8Array(raw).buffer, 0, count);
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const data = new Float32Array(count);
  for (let i = 0; i < count; i++) data[i] = view.getFloat32(4 * i, true);
  return data;
}

function readTensor(bytes: Uint8Array): { name: string; tensor: Tensor } {
  let name = '',
    type = 0,
    raw: Uint8Array | null = null;
  const dims: number[] = [];
  for (const { field, wire, value, body } of protoFields(bytes)) {
    if (field === 1 && wire === 0) dims.push(value);
    else if (field === 2) type = value;
    else if (field === 8) name = text(body);
    else if (field === 9) raw = body;
  }
  if (type !== FLOAT) throw new Error(`tensor ${name} is not float32 (data type ${type})`);
  const count = dims.reduce((n, d) => n * d, 1);
  // models/lib/onnx-writer.ts stores every tensor as raw little-endian bytes
  if (!raw || raw.length !== count * 4) throw new Error(`tensor ${name} does not hold its ${count} values as raw bytes`);
  return { name, tensor: { dims, data: littleEndianFloats(raw, count) } };
}

function readNode(bytes: Uint8Array): GraphNode {
  const node: GraphNode = { op: '', inputs: [], outputs: [], attributes: new Map() };
  for (const { field, body } of protoFields(bytes)) {
    if (field === 1) node.inputs.push(text(body));
    else if (field === 2) node.outputs.push(text(body));
    else if (field === 4) node.op = text(body);
    else if (field === 7 && body.length > 0 && text(body) !== 'ai.onnx') throw new Error(`operator domain ${text(body)} is not supported`);
    else if (field === 5) {
      let name = '',
        value = NaN;
      for (const attribute of protoFields(body)) {
        if (attribute.field === 1) name = text(attribute.body);
        else if (attribute.field === 2 || attribute.field === 3) value = attribute.value;
      }
      node.attributes.set(name, value);
    }
  }
  if (!SUPPORTED_OPS.has(node.op)) throw new Error(`operator ${node.op} is not supported`);
  return node;
}

/** Reads the graph of an ONNX model file; throws on anything this evaluator cannot run. */
export function readOnnxMlp(bytes: Uint8Array): OnnxMlp {
  let graph: Uint8Array | null = null;
  for (const { field, body } of protoFields(bytes)) if (field === 7) graph = body;
  if (!graph) throw new Error('the model has no graph');
  const model: OnnxMlp = { input: '', output: '', initializers: new Map(), nodes: [] };
  const inputs: string[] = [];
  for (const { field, body } of protoFields(graph)) {
    if (field === 1) model.nodes.push(readNode(body));
    else if (field === 5) {
      const { name, tensor } = readTensor(body);
      model.initializers.set(name, tensor);
    } else if (field === 11 || field === 12) {
      let name = '';
      for (const info of protoFields(body)) if (info.field === 1) name = text(info.body);
      if (field === 11) inputs.push(name);
      else if (!model.output) model.output = name;
    }
  }
  const fed = inputs.filter((name) => !model.initializers.has(name));
  if (fed.length !== 1 || !model.output) throw new Error('the model must have one fed input and an output');
  model.input = fed[0];
  return model;
}

/** Elementwise a ∘ b, b of the same shape as a or a row broadcast over a's rows (ONNX broadcasting). */
function elementwise(a: Tensor, b: Tensor, apply: (x: number, y: number) => number): Tensor {
  const [small, big, swapped] = b.data.length <= a.data.length ? [b, a, false] : [a, b, true];
  const width = small.data.length;
  const trailing = big.dims.length === 0 ? 1 : big.dims[big.dims.length - 1];
  if (!(width === big.data.length || (width === trailing && small.dims.length === 1) || width === 1))
    throw new Error(`cannot broadcast [${small.dims}] over [${big.dims}]`);
  const data = new Float32Array(big.data.length);
  for (let i = 0; i < data.length; i++) {
    const s = small.data[i % width];
    data[i] = Math.fround(swapped ? apply(s, big.data[i]) : apply(big.data[i], s));
  }
  return { dims: big.dims, data };
}

function gemm(a: Tensor, b: Tensor, c: Tensor | undefined, attributes: Map<string, number>): Tensor {
  const transA = attributes.get('transA') === 1,
    transB = attributes.get('transB') === 1;
  const alpha = attributes.get('alpha') ?? 1,
    beta = attributes.get('beta') ?? 1;
  if (a.dims.length !== 2 || b.dims.length !== 2) throw new Error('Gemm takes two matrices');
  const [m, k] = transA ? [a.dims[1], a.dims[0]] : a.dims;
  const [kb, n] = transB ? [b.dims[1], b.dims[0]] : b.dims;
  if (k !== kb) throw new Error(`Gemm: inner sizes ${k} and ${kb} differ`);
  const data = new Float32Array(m * n);
  for (let row = 0; row < m; row++) {
    for (let col = 0; col < n; col++) {
      let sum = 0;
      for (let i = 0; i < k; i++) {
        const x = transA ? a.data[i * m + row] : a.data[row * k + i];
        const w = transB ? b.data[col * k + i] : b.data[i * n + col];
        // x*w of two float32s is exact in a double: one rounding, as a fused multiply-add
        sum = Math.fround(x * w + sum);
      }
      let value = alpha === 1 ? sum : Math.fround(alpha * sum);
      if (c && beta !== 0) {
        const bias = c.data.length === 1 ? c.data[0] : c.data.length === n ? c.data[col] : c.data[row * n + col];
        value = Math.fround(value + (beta === 1 ? bias : Math.fround(beta * bias)));
      }
      data[row * n + col] = value;
    }
  }
  return { dims: [m, n], data };
}

function softmax(x: Tensor, axis: number): Tensor {
  const last = x.dims.length - 1;
  if (axis !== -1 && axis !== last) throw new Error('Softmax only over the last axis');
  const width = x.dims[last];
  const data = new Float32Array(x.data.length);
  for (let start = 0; start < data.length; start += width) {
    let max = -Infinity;
    for (let i = 0; i < width; i++) max = Math.max(max, x.data[start + i]);
    let sum = 0;
    for (let i = 0; i < width; i++) {
      data[start + i] = Math.fround(Math.exp(Math.fround(x.data[start + i] - max)));
      sum = Math.fround(sum + data[start + i]);
    }
    for (let i = 0; i < width; i++) data[start + i] = Math.fround(data[start + i] / sum);
  }
  return { dims: x.dims, data };
}

/** Runs the graph on one fed tensor and returns the output's values. */
export function runOnnxMlp(model: OnnxMlp, input: Tensor): Float32Array {
  const values = new Map<string, Tensor>(model.initializers);
  values.set(model.input, input);
  const get = (name: string): Tensor => {
    const value = values.get(name);
    if (!value) throw new Error(`the graph reads ${name} before it is computed`);
    return value;
  };
  for (const node of model.nodes) {
    const [first, second, third] = node.inputs;
    let result: Tensor;
    if (node.op === 'Sub') result = elementwise(get(first), get(second), (x, y) => x - y);
    else if (node.op === 'Mul') result = elementwise(get(first), get(second), (x, y) => x * y);
    else if (node.op === 'Add') result = elementwise(get(first), get(second), (x, y) => x + y);
    else if (node.op === 'Gemm') result = gemm(get(first), get(second), third ? get(third) : undefined, node.attributes);
    else if (node.op === 'Relu') result = { dims: get(first).dims, data: get(first).data.map((x) => (x > 0 ? x : 0)) };
    else result = softmax(get(first), node.attributes.get('axis') ?? -1);
    values.set(node.outputs[0], result);
  }
  return get(model.output).data;
}

/**
 * Opens the model in plain JavaScript, on the CPU only; throws for any other provider and for a
 * model it cannot run (the caller then opens onnxruntime).
 */
export const plainMlpSessionFactory: ClassifierSessionFactory = async (modelPath, provider) => {
  if (provider !== 'cpu') throw new Error(`the plain JavaScript classifier runs on the CPU, not ${provider}`);
  const model = readOnnxMlp(await readFile(modelPath));
  const session: ClassifierSession = {
    provider,
    async run(features, rows) {
      return runOnnxMlp(model, { dims: [rows, features.length / rows], data: features });
    },
  };
  return session;
};
