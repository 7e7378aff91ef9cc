// Times the ONNX accumulator loop (make_loop_model.py) in ONNX Runtime through
// the onnxruntime-node package, on one thread, and prints one JSON line:
//   {"runtime": "onnxruntime-node 1.30.0", "n1": ..., "n2": ..., "repeats": ...,
//    "n1_ns", "n2_ns": fastest wall time of session.run,
//    "n1_cpu_ns", "n2_cpu_ns": least process CPU time of one session.run,
//    "marginal_ns_per_iteration": the smaller of the two marginals}
// Each figure is the best of `repeats` runs (after one warm-up run), so
// session creation and graph optimisation are excluded, as prepare is on the
// nnfab side. The best run is the one other jobs on the machine disturbed
// least; CPU time is counted too because a run of ~0.2 s on a shared VM is
// always descheduled some of the time, which would flatter nnfab.
//
// Usage: node ort_loop.js MODEL.onnx N1 N2 REPEATS   (NODE_PATH: the folder
// holding node_modules/onnxruntime-node)
'use strict';

const ort = require('onnxruntime-node');

function cpuNs() {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

async function timeRun(session, n, repeats) {
  const feeds = { n: new ort.Tensor('int32', Int32Array.from([n]), [1]) };
  const check = await session.run(feeds);  // warm-up, and the result must be right
  const i = check.i.data[0];
  let expected = 0;
  for (let k = 0; k < n; ++k) expected = (expected + k) | 0;  // INT32 wrap-around, as nnfab
  if (i !== n || check.acc.data[0] !== expected) {
    throw new Error(`n = ${n}: got i = ${i}, acc = ${check.acc.data[0]}; expected ${n}, ${expected}`);
  }
  let wall = Infinity, cpu = Infinity;
  for (let r = 0; r < repeats; ++r) {
    const cpuStart = cpuNs();
    const start = process.hrtime.bigint();
    await session.run(feeds);
    wall = Math.min(wall, Number(process.hrtime.bigint() - start));
    cpu = Math.min(cpu, cpuNs() - cpuStart);
  }
  return { wall, cpu };
}

async function main() {
  const [model, n1s, n2s, repeatsText] = process.argv.slice(2);
  if (!model || !n1s || !n2s) {
    console.error('usage: node ort_loop.js MODEL.onnx N1 N2 [REPEATS]');
    process.exit(2);
  }
  const n1 = Number(n1s), n2 = Number(n2s), repeats = Number(repeatsText || 5);
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  });
  const t1 = await timeRun(session, n1, repeats);
  const t2 = await timeRun(session, n2, repeats);
  const version = require('onnxruntime-node/package.json').version;
  const wallMarginal = (t2.wall - t1.wall) / (n2 - n1);
  const cpuMarginal = (t2.cpu - t1.cpu) / (n2 - n1);
  console.log(JSON.stringify({
    runtime: `onnxruntime-node ${version}`,
    n1, n2, repeats, n1_ns: t1.wall, n2_ns: t2.wall, n1_cpu_ns: t1.cpu, n2_cpu_ns: t2.cpu,
    wall_marginal_ns_per_iteration: wallMarginal,
    cpu_marginal_ns_per_iteration: cpuMarginal,
    marginal_ns_per_iteration: Math.min(wallMarginal, cpuMarginal),
  }));
}

main().catch((e) => {
  console.error(`ort_loop.js: ${e.message}`);
  process.exit(1);
});
