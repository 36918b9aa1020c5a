/**
 * The kernels' reads and writes of their arrays: an array is a byte offset into the module's
 * memory (the TypeScript side lays them out), `k` an index into it. Inlined, so a kernel compiles
 * as if it had written the loads and stores itself. Not a kernel of its own: build/wasm.ts
 * compiles only the files beside this folder.
 */

@inline
export function i32At(array: usize, k: i32): i32 {
  return load<i32>(array + (<usize>k << 2));
}

@inline
export function setI32(array: usize, k: i32, v: i32): void {
  store<i32>(array + (<usize>k << 2), v);
}

@inline
export function f64At(array: usize, k: i32): f64 {
  return load<f64>(array + (<usize>k << 3));
}

@inline
export function setF64(array: usize, k: i32, v: f64): void {
  store<f64>(array + (<usize>k << 3), v);
}

/** Adds `v` to the double at index `k`. */
@inline
export function addTo(array: usize, k: i32, v: f64): void {
  const at = array + (<usize>k << 3);
  store<f64>(at, load<f64>(at) + v);
}
