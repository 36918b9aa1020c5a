/**
 * A minimal ONNX (protobuf) writer: just the messages a feed-forward classifier needs
 * (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto, ValueInfoProto). Field numbers
 * follow onnx/onnx.proto3. Hand-written so training needs no protobuf dependency; the output is
 * byte-for-byte a function of its input, which makes a fixed seed give the same file.
 */

class ProtoWriter {
  private chunks: number[] = [];

  private varint(value: number | bigint): void {
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.chunks.push(Number((v & 0x7fn) | 0x80n));
      v >>= 7n;
    }
    this.chunks.push(Number(v));
  }

  private key(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  int(field: number, value: number): this {
    this.key(field, 0);
    this.varint(value);
    return this;
  }

  float(field: number, value: number): this {
    this.key(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.chunks.push(...b);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.key(field, 2);
    this.varint(value.length);
    for (const byte of value) this.chunks.push(byte);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, build: (w: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }
}

const TENSOR_FLOAT = 1;
const ATTRIBUTE_FLOAT = 1;
const ATTRIBUTE_INT = 2;

export interface OnnxTensor {
  name: string;
  dims: number[];
  values: Float32Array;
}

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  name: string;
  attributes?: Record<string, { int: number } | { float: number }>;
}

interface OnnxValue {
  name: string;
  /** A number is a fixed size; a string is a symbolic dimension (the batch). */
  shape: (number | string)[];
}

interface OnnxGraph {
  name: string;
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
  producer: string;
  docString?: string;
  metadata?: Record<string, string>;
}

function writeValueInfo(w: ProtoWriter, value: OnnxValue): void {
  w.string(1, value.name);
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, TENSOR_FLOAT);
      tensor.message(2, (shape) => {
        for (const dim of value.shape) {
          shape.message(1, (d) => (typeof dim === 'number' ? d.int(1, dim) : d.string(2, dim)));
        }
      });
    }),
  );
}

export function encodeOnnxModel(graph: OnnxGraph, opset = 13): Uint8Array {
  const model = new ProtoWriter();
  model.int(1, 8); // ir_version 8 (ONNX 1.10+), read by every onnxruntime since 1.10
  model.string(2, graph.producer);
  if (graph.docString) model.string(6, graph.docString);
  model.message(7, (g) => {
    for (const node of graph.nodes) {
      g.message(1, (n) => {
        for (const input of node.inputs) n.string(1, input);
        for (const output of node.outputs) n.string(2, output);
        n.string(3, node.name);
        n.string(4, node.op);
        for (const [name, value] of Object.entries(node.attributes ?? {})) {
          n.message(5, (a) => {
            a.string(1, name);
            if ('int' in value) a.int(3, value.int).int(20, ATTRIBUTE_INT);
            else a.float(2, value.float).int(20, ATTRIBUTE_FLOAT);
          });
        }
      });
    }
    g.string(2, graph.name);
    for (const tensor of graph.initializers) {
      g.message(5, (t) => {
        for (const dim of tensor.dims) t.int(1, dim);
        t.int(2, TENSOR_FLOAT);
        t.string(8, tensor.name);
        const raw = new Uint8Array(tensor.values.length * 4);
        const view = new DataView(raw.buffer);
        tensor.values.forEach((v, i) => view.setFloat32(i * 4, v, true));
        t.bytes(9, raw);
      });
    }
    for (const input of graph.inputs) g.message(11, (v) => writeValueInfo(v, input));
    for (const output of graph.outputs) g.message(12, (v) => writeValueInfo(v, output));
  });
  model.message(8, (o) => o.string(1, '').int(2, opset));
  for (const [key, value] of Object.entries(graph.metadata ?? {})) {
    model.message(14, (m) => m.string(1, key).string(2, value));
  }
  return model.finish();
}
