/**
 * A small multilayer perceptron trained with Adam on typed arrays, fully determined by its seed:
 * seeded initialisation, seeded shuffling, float64 arithmetic in a fixed order. The trained
 * network exports to ONNX as Sub → Mul (feature standardisation) → Gemm/Relu … → Softmax.
 */
import { encodeOnnxModel, type OnnxNode, type OnnxTensor } from './onnx-writer.js';

/** mulberry32: tiny, fast, and the same sequence on every platform. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function gaussian(random: () => number): number {
  const u = Math.max(1e-12, random());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

interface Layer {
  inputs: number;
  outputs: number;
  /** Row-major [outputs][inputs], the Gemm transB=1 layout. */
  weights: Float64Array;
  bias: Float64Array;
}

export interface Mlp {
  mean: Float64Array;
  invStd: Float64Array;
  layers: Layer[];
}

export interface TrainOptions {
  hidden: number[];
  epochs: number;
  batchSize: number;
  learningRate: number;
  weightDecay: number;
  seed: number;
  /** Standard deviation of Gaussian noise added to the standardised features while training. */
  inputNoise?: number;
  /** Per-class loss weights (balance classes of unequal size). */
  classWeights?: number[];
  /** Per-sample loss weights, multiplied with the class weight (balance sources within a class). */
  sampleWeights?: number[];
  onEpoch?: (epoch: number, loss: number) => void;
}

function standardisation(x: Float32Array[], featureCount: number): { mean: Float64Array; invStd: Float64Array } {
  const mean = new Float64Array(featureCount);
  const sq = new Float64Array(featureCount);
  for (const row of x)
    for (let j = 0; j < featureCount; j++) {
      mean[j] += row[j];
      sq[j] += row[j] * row[j];
    }
  const invStd = new Float64Array(featureCount);
  for (let j = 0; j < featureCount; j++) {
    mean[j] /= x.length;
    const variance = sq[j] / x.length - mean[j] * mean[j];
    // A constant feature gets scale 1, not a division by ~0.
    invStd[j] = variance > 1e-10 ? 1 / Math.sqrt(variance) : 1;
  }
  // Round to float32 now, so the trainer and the exported graph standardise identically.
  return { mean: mean.map(Math.fround), invStd: invStd.map(Math.fround) };
}

function forwardAll(model: Mlp, input: ArrayLike<number>, noise?: { sigma: number; random: () => number }): Float64Array[] {
  const activations: Float64Array[] = [];
  let current = new Float64Array(input.length);
  for (let j = 0; j < input.length; j++) current[j] = (input[j] - model.mean[j]) * model.invStd[j];
  // Noise on the inputs keeps the net from leaning on any one feature's exact value.
  if (noise && noise.sigma > 0) for (let j = 0; j < input.length; j++) current[j] += noise.sigma * gaussian(noise.random);
  activations.push(current);
  model.layers.forEach((layer, index) => {
    const out = new Float64Array(layer.outputs);
    for (let o = 0; o < layer.outputs; o++) {
      let s = layer.bias[o];
      const row = o * layer.inputs;
      for (let i = 0; i < layer.inputs; i++) s += layer.weights[row + i] * current[i];
      out[o] = index < model.layers.length - 1 ? Math.max(0, s) : s;
    }
    activations.push(out);
    current = out;
  });
  return activations;
}

export function softmax(logits: Float64Array): Float64Array {
  let max = -Infinity;
  for (const v of logits) max = Math.max(max, v);
  const out = new Float64Array(logits.length);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) {
    out[i] = Math.exp(logits[i] - max);
    sum += out[i];
  }
  for (let i = 0; i < logits.length; i++) out[i] /= sum;
  return out;
}

/** Class probabilities for one feature vector. */
export function predict(model: Mlp, input: ArrayLike<number>): Float64Array {
  const acts = forwardAll(model, input);
  return softmax(acts[acts.length - 1]);
}

export function trainMlp(x: Float32Array[], y: number[], classes: number, options: TrainOptions): Mlp {
  const random = seededRandom(options.seed);
  const featureCount = x[0].length;
  const { mean, invStd } = standardisation(x, featureCount);
  const sizes = [featureCount, ...options.hidden, classes];
  const layers: Layer[] = [];
  for (let l = 0; l < sizes.length - 1; l++) {
    const inputs = sizes[l],
      outputs = sizes[l + 1];
    const scale = Math.sqrt(2 / inputs); // He initialisation for ReLU layers
    const weights = new Float64Array(inputs * outputs);
    for (let i = 0; i < weights.length; i++) weights[i] = gaussian(random) * scale;
    layers.push({ inputs, outputs, weights, bias: new Float64Array(outputs) });
  }
  const model: Mlp = { mean, invStd, layers };
  const classWeights = options.classWeights ?? new Array(classes).fill(1);

  const m = layers.map((l) => ({ w: new Float64Array(l.weights.length), b: new Float64Array(l.outputs) }));
  const v = layers.map((l) => ({ w: new Float64Array(l.weights.length), b: new Float64Array(l.outputs) }));
  const grads = layers.map((l) => ({ w: new Float64Array(l.weights.length), b: new Float64Array(l.outputs) }));
  const beta1 = 0.9,
    beta2 = 0.999,
    eps = 1e-8;
  let step = 0;
  const order = x.map((_, i) => i);

  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    // Cosine decay of the step size over the run.
    const lr = options.learningRate * 0.5 * (1 + Math.cos((Math.PI * epoch) / options.epochs));
    let epochLoss = 0;
    for (let start = 0; start < order.length; start += options.batchSize) {
      const batch = order.slice(start, start + options.batchSize);
      for (const g of grads) {
        g.w.fill(0);
        g.b.fill(0);
      }
      let weightSum = 0;
      for (const index of batch) {
        const acts = forwardAll(model, x[index], options.inputNoise ? { sigma: options.inputNoise, random } : undefined);
        const probs = softmax(acts[acts.length - 1]);
        const cw = classWeights[y[index]] * (options.sampleWeights ? options.sampleWeights[index] : 1);
        weightSum += cw;
        epochLoss -= cw * Math.log(Math.max(1e-12, probs[y[index]]));
        let delta = new Float64Array(classes);
        for (let c = 0; c < classes; c++) delta[c] = cw * (probs[c] - (c === y[index] ? 1 : 0));
        for (let l = layers.length - 1; l >= 0; l--) {
          const layer = layers[l],
            input = acts[l],
            g = grads[l];
          const back = new Float64Array(layer.inputs);
          for (let o = 0; o < layer.outputs; o++) {
            const d = delta[o];
            if (d === 0) continue;
            g.b[o] += d;
            const row = o * layer.inputs;
            for (let i = 0; i < layer.inputs; i++) {
              g.w[row + i] += d * input[i];
              back[i] += d * layer.weights[row + i];
            }
          }
          if (l > 0) for (let i = 0; i < layer.inputs; i++) if (input[i] <= 0) back[i] = 0;
          delta = back;
        }
      }
      step++;
      const bc1 = 1 - Math.pow(beta1, step),
        bc2 = 1 - Math.pow(beta2, step);
      layers.forEach((layer, l) => {
        const update = (param: Float64Array, grad: Float64Array, mm: Float64Array, vv: Float64Array, decay: number) => {
          for (let i = 0; i < param.length; i++) {
            const gr = grad[i] / weightSum + decay * param[i];
            mm[i] = beta1 * mm[i] + (1 - beta1) * gr;
            vv[i] = beta2 * vv[i] + (1 - beta2) * gr * gr;
            param[i] -= (lr * (mm[i] / bc1)) / (Math.sqrt(vv[i] / bc2) + eps);
          }
        };
        update(layer.weights, grads[l].w, m[l].w, v[l].w, options.weightDecay);
        update(layer.bias, grads[l].b, m[l].b, v[l].b, 0);
      });
    }
    options.onEpoch?.(epoch, epochLoss / order.length);
  }
  return roundToFloat32(model);
}

/**
 * Several nets trained on the same rows (so sharing one standardisation) as one wider net whose
 * logits are the members' mean: the first layers stacked, the later ones block-diagonal, the
 * output layer side by side and divided by the count. Same exporter, same single Gemm chain.
 */
export function mergeMlps(members: Mlp[]): Mlp {
  const first = members[0];
  for (const m of members) {
    if (m.layers.length !== first.layers.length || m.mean.some((v, j) => v !== first.mean[j] || m.invStd[j] !== first.invStd[j])) {
      throw new Error('mergeMlps: members must share depth and standardisation');
    }
  }
  const depth = first.layers.length;
  const layers: Layer[] = [];
  for (let l = 0; l < depth; l++) {
    const last = l === depth - 1;
    const inputs = l === 0 ? first.layers[0].inputs : members.reduce((s, m) => s + m.layers[l].inputs, 0);
    const outputs = last ? first.layers[l].outputs : members.reduce((s, m) => s + m.layers[l].outputs, 0);
    const weights = new Float64Array(inputs * outputs);
    const bias = new Float64Array(outputs);
    let rowOffset = 0,
      colOffset = 0;
    for (const m of members) {
      const layer = m.layers[l];
      for (let o = 0; o < layer.outputs; o++) {
        const row = last ? o : rowOffset + o;
        const col = l === 0 ? 0 : colOffset;
        for (let i = 0; i < layer.inputs; i++)
          weights[row * inputs + col + i] += last
            ? layer.weights[o * layer.inputs + i] / members.length
            : layer.weights[o * layer.inputs + i];
        bias[row] += last ? layer.bias[o] / members.length : layer.bias[o];
      }
      rowOffset += layer.outputs;
      colOffset += layer.inputs;
    }
    layers.push({ inputs, outputs, weights, bias });
  }
  return roundToFloat32({ mean: first.mean, invStd: first.invStd, layers });
}

/** The exported model holds float32 weights; the trainer's reference outputs use the same. */
function roundToFloat32(model: Mlp): Mlp {
  return {
    mean: model.mean.map(Math.fround),
    invStd: model.invStd.map(Math.fround),
    layers: model.layers.map((l) => ({ ...l, weights: l.weights.map(Math.fround), bias: l.bias.map(Math.fround) })),
  };
}

export function mlpToOnnx(model: Mlp, meta: { producer: string; docString: string; metadata: Record<string, string> }): Uint8Array {
  const featureCount = model.mean.length;
  const initializers: OnnxTensor[] = [
    { name: 'feature_mean', dims: [featureCount], values: Float32Array.from(model.mean) },
    { name: 'feature_inv_std', dims: [featureCount], values: Float32Array.from(model.invStd) },
  ];
  const nodes: OnnxNode[] = [
    { op: 'Sub', inputs: ['features', 'feature_mean'], outputs: ['centred'], name: 'standardise_centre' },
    { op: 'Mul', inputs: ['centred', 'feature_inv_std'], outputs: ['h0'], name: 'standardise_scale' },
  ];
  model.layers.forEach((layer, l) => {
    const last = l === model.layers.length - 1;
    initializers.push({ name: `dense${l}_weight`, dims: [layer.outputs, layer.inputs], values: Float32Array.from(layer.weights) });
    initializers.push({ name: `dense${l}_bias`, dims: [layer.outputs], values: Float32Array.from(layer.bias) });
    const out = last ? 'logits' : `z${l + 1}`;
    nodes.push({
      op: 'Gemm',
      inputs: [`h${l}`, `dense${l}_weight`, `dense${l}_bias`],
      outputs: [out],
      name: `dense${l}`,
      attributes: { transB: { int: 1 } },
    });
    if (!last) nodes.push({ op: 'Relu', inputs: [out], outputs: [`h${l + 1}`], name: `relu${l}` });
  });
  nodes.push({ op: 'Softmax', inputs: ['logits'], outputs: ['scores'], name: 'softmax', attributes: { axis: { int: 1 } } });
  const classes = model.layers[model.layers.length - 1].outputs;
  return encodeOnnxModel({
    name: 'vectorize_image_type',
    producer: meta.producer,
    docString: meta.docString,
    metadata: meta.metadata,
    nodes,
    initializers,
    inputs: [{ name: 'features', shape: ['batch', featureCount] }],
    outputs: [{ name: 'scores', shape: ['batch', classes] }],
  });
}
