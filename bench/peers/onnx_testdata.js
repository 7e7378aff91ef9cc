// The control-flow node tests of libonnx-testdata through ONNX Runtime
// (onnxruntime-node) and through `nnfab run MODEL.onnx`, each compared with the
// test's output_K.pb and with each other. onnx_testdata.sh is the entry that
// checks the prerequisites and calls this; README.md beside it says more.
//
//   node onnx_testdata.js --list tests/onnx/control_flow_tests.json --data DIR
//        --nnfab PATH --python PATH --work DIR --device cpu [--device hls ...]
//
// The list is tests/onnx's (test -> "" when nnfab imports it, else a piece
// of nnfab's refusal), so both check the same tests. Prints a Markdown table
// (test, ONNX Runtime, nnfab on the devices, agree) on stdout and exits 0 when
// nnfab does what the list says (imports and matches output_K.pb on every
// device, or refuses with the listed reason) and agrees with ONNX Runtime
// wherever both ran; 1 otherwise, with the reasons on stderr.
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const ort = require('onnxruntime-node');
const { RTOL, ATOL, toNumber, promoted, compareOutputs } = require('./tensor_compare');

function parseArgs(argv) {
  const args = { device: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!['list', 'data', 'nnfab', 'python', 'work', 'device'].includes(key) || i + 1 >= argv.length) {
      throw new Error(`unknown or incomplete option ${argv[i]}`);
    }
    if (key === 'device') args.device.push(argv[i + 1]);
    else args[key] = argv[i + 1];
  }
  for (const key of ['list', 'data', 'nnfab', 'python', 'work']) {
    if (!args[key]) throw new Error(`--${key} is required`);
  }
  if (args.device.length === 0) args.device.push('cpu');
  return args;
}

const firstLine = (text) => String(text).split('\n').find((l) => l.trim() !== '') || String(text);

function ortTensor(value) {
  const arrays = {
    float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, int16: Int16Array,
    uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
  };
  let data;
  if (value.type === 'int64') data = BigInt64Array.from(value.data, (x) => BigInt(x));
  else if (value.type === 'uint64') data = BigUint64Array.from(value.data, (x) => BigInt(x));
  else if (value.type === 'bool') data = Uint8Array.from(value.data, (x) => (x ? 1 : 0));
  else if (arrays[value.type]) data = arrays[value.type].from(value.data, toNumber);
  else throw new Error(`input '${value.name}' has element type ${value.type}, which this driver does not feed`);
  return new ort.Tensor(value.type, data, value.dims);
}

// { ran, outputs } or { ran: false, message }.
async function runOrt(modelPath, values) {
  const nonTensor = values.inputs.find((v) => v.kind !== 'tensor');
  if (nonTensor) {
    const article = /^[aeiou]/.test(nonTensor.kind) ? 'an' : 'a';
    return { ran: false, message: `input '${nonTensor.name}' is ${article} ${nonTensor.kind}; onnxruntime-node feeds tensors only` };
  }
  try {
    const session = await ort.InferenceSession.create(modelPath, {
      executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential',
    });
    const feeds = {};
    for (const v of values.inputs) feeds[v.name] = ortTensor(v);
    const results = await session.run(feeds);
    const outputs = values.outputs.map((o) => ({ dims: results[o.name].dims, data: Array.from(results[o.name].data) }));
    await session.release();
    return { ran: true, outputs };
  } catch (e) {
    return { ran: false, message: firstLine(e.message) };
  }
}

// { ran, outputs } or { ran: false, refused, message } from one `nnfab run`.
function runNnfab(args, modelPath, values, device, inputsPath) {
  // Only tensors can be written; a model with other inputs is refused at import.
  const inputs = values.inputs.filter((v) => v.kind === 'tensor').map((v) => ({ dimensions: promoted(v.dims), data: v.data }));
  fs.writeFileSync(inputsPath, JSON.stringify({ inputs }) + '\n');
  const r = spawnSync(args.nnfab, ['run', modelPath, '--inputs', inputsPath, '--device', device],
                      { encoding: 'utf8', timeout: 120000, maxBuffer: 64 << 20 });
  if (r.error) return { ran: false, message: `nnfab did not run: ${r.error.message}` };
  let result;
  try {
    result = JSON.parse(r.stdout);
  } catch (e) {
    return { ran: false, message: `exit ${r.status}: ${firstLine(r.stderr || r.stdout)}` };
  }
  if (result.status !== 'NO_ERROR') {
    // "cannot import PATH: why" -> "why" (the path is the test's, in the row already).
    const why = firstLine(result.message).replace(/^cannot import .*?\.onnx: /, '');
    return { ran: false, refused: result.status === 'INVALID_ARGUMENT', message: `${result.status}: ${why}` };
  }
  return { ran: true, outputs: result.outputs.map((o) => ({ dims: o.dimensions, data: o.data })) };
}

function cell(side, expected) {
  if (!side.ran) return (side.refused ? 'refused: ' : 'cannot run: ') + side.message.replace(/\|/g, '\\|');
  const m = compareOutputs(expected, side.outputs);
  return m ? `DIFFERS from output_K.pb: ${m}` : 'matches output_K.pb';
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const list = JSON.parse(fs.readFileSync(args.list, 'utf8')).tests;
  fs.mkdirSync(args.work, { recursive: true });
  const problems = [];
  const rows = [];
  for (const [test, refusal] of Object.entries(list)) {
    const dir = path.join(args.data, 'node', test);
    const modelPath = path.join(dir, 'model.onnx');
    if (!fs.existsSync(modelPath)) {
      problems.push(`${test}: not in ${args.data}/node`);
      continue;
    }
    const py = spawnSync(args.python, [path.join(__dirname, 'testdata_tensors.py'), dir], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (py.status !== 0) {
      problems.push(`${test}: reading its .pb files failed: ${firstLine(py.stderr)}`);
      continue;
    }
    const values = JSON.parse(py.stdout);
    // A non-tensor output has no decoded data: nothing can match it.
    const expected = values.outputs.map((o) => (o.kind === 'tensor' ? o : { ...o, dims: [], data: [NaN] }));

    const ortSide = await runOrt(modelPath, values);
    const row = { test, ort: cell(ortSide, expected), nnfab: [], agree: 'n/a' };  // nnfab: one cell per device
    let bothRan = ortSide.ran, agree = true;
    for (const device of args.device) {
      const side = runNnfab(args, modelPath, values, device, path.join(args.work, `${test}.inputs.json`));
      row.nnfab.push(cell(side, expected));
      if (refusal === '') {
        if (!side.ran) problems.push(`${test} on ${device}: nnfab should import and run it: ${side.message}`);
        else if (compareOutputs(expected, side.outputs)) problems.push(`${test} on ${device}: ${compareOutputs(expected, side.outputs)}`);
      } else if (side.ran || !side.refused || !side.message.includes(refusal)) {
        problems.push(`${test} on ${device}: nnfab should refuse it with "${refusal}", got: ${side.ran ? 'a result' : side.message}`);
      }
      bothRan = bothRan && side.ran;
      if (ortSide.ran && side.ran) {
        // ONNX Runtime's result is the reference here, with its element types.
        const ortAsExpected = expected.map((e, k) => ({ ...e, dims: ortSide.outputs[k].dims, data: ortSide.outputs[k].data }));
        const m = compareOutputs(ortAsExpected, side.outputs);
        if (m) {
          agree = false;
          problems.push(`${test} on ${device}: nnfab and ONNX Runtime differ: ${m}`);
        }
      }
    }
    if (bothRan) row.agree = agree ? 'yes' : 'NO';
    rows.push(row);
  }

  // One nnfab column: the devices' cells are mostly the same text; where
  // they differ each is named.
  const nnfabCell = (cells) => (cells.every((c) => c === cells[0]) ? cells[0]
                                : cells.map((c, k) => `${args.device[k]}: ${c}`).join('; '));
  const heads = ['test', `ONNX Runtime ${ort.env.versions?.node ?? ''}`.trim(),
                 `nnfab run --device ${args.device.join(', ')}`, 'agree'];
  console.log(`| ${heads.join(' | ')} |`);
  console.log(`|${heads.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${[r.test, r.ort, nnfabCell(r.nnfab), r.agree].join(' | ')} |`);
  const agreed = rows.filter((r) => r.agree === 'yes').length;
  console.log(`\n${rows.length} tests; ONNX Runtime and nnfab both ran ${rows.filter((r) => r.agree !== 'n/a').length}` +
              ` and agree on ${agreed} (rtol ${RTOL}, atol ${ATOL}; integers and bools exactly)`);
  if (problems.length > 0) {
    console.error(`onnx_testdata: ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(`onnx_testdata: ${e.message}`);
  process.exit(1);
});
