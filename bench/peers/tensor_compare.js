// How onnx_testdata.js compares two sets of outputs: ONNX's backend-test
// tolerances, ONNX's rank 0 equal to nnfab's [1]. A module of its own so
// that tests/onnx/peers_script_test.sh checks it without ONNX Runtime.
'use strict';

// ONNX's backend tests compare floats with numpy's assert_allclose at these.
const RTOL = 1e-3;
const ATOL = 1e-7;
const FLOAT_TYPES = new Set(['float16', 'float32', 'float64']);

// A flat element as a number: nnfab's and our JSON spell non-finite floats
// as strings, ONNX Runtime gives BigInt for int64 and 0/1 for bool.
function toNumber(x) {
  if (typeof x === 'bigint') return Number(x);
  if (typeof x === 'boolean') return x ? 1 : 0;
  if (x === 'NaN') return NaN;
  if (x === 'Infinity') return Infinity;
  if (x === '-Infinity') return -Infinity;
  return Number(x);
}

// ONNX's rank 0 is nnfab's [1] (docs/onnx.md).
const promoted = (dims) => (dims.length === 0 ? [1] : dims.map(Number));

// "" when `got` matches `want` (want.type decides float tolerance or exact).
function mismatch(want, got) {
  const wd = promoted(want.dims), gd = promoted(got.dims);
  if (wd.join(',') !== gd.join(',')) return `dimensions [${gd}] instead of [${wd}]`;
  if (want.data.length !== got.data.length) return `${got.data.length} elements instead of ${want.data.length}`;
  const isFloat = FLOAT_TYPES.has(want.type);
  for (let i = 0; i < want.data.length; ++i) {
    const w = toNumber(want.data[i]), g = toNumber(got.data[i]);
    // NaN equals NaN; an infinity only itself (inf - x is never within inf · rtol).
    const same = !isFloat ? w === g
               : Number.isNaN(w) ? Number.isNaN(g)
               : w === g || (Number.isFinite(w) && Math.abs(g - w) <= ATOL + RTOL * Math.abs(w));
    if (!same) return `element ${i}: ${got.data[i]} instead of ${want.data[i]}`;
  }
  return '';
}

// The first mismatching output, named, or "".
function compareOutputs(want, got) {
  if (got.length !== want.length) return `${got.length} outputs instead of ${want.length}`;
  for (let k = 0; k < want.length; ++k) {
    const m = mismatch(want[k], got[k]);
    if (m) return `output ${k} (${want[k].name}): ${m}`;
  }
  return '';
}

module.exports = { RTOL, ATOL, toNumber, promoted, mismatch, compareOutputs };
