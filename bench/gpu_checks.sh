#!/usr/bin/env bash
# The checks a session runs when a GPU is lent to it: gluonjax's device tests, a slice of the test
# suite with jax's default device on the GPU, and the benchmarks, on the machine's own python3 and
# jax (no package registry there: gluonjax is used from the checkout). Each step has its own limit
# so that one hang cannot eat the rest; logs go to $OUT (or /tmp/gpu-checks).
#   bash bench/gpu_checks.sh
set -u
out="${OUT:-/tmp/gpu-checks}"; mkdir -p "$out"
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
step() {  # step NAME SECONDS COMMAND...: runs COMMAND, its output into $out/NAME.log
  local name="$1" limit="$2"; shift 2
  echo "== $name ($(date -u +%T), limit ${limit}s)"
  timeout -k 10 "$limit" "$@" > "$out/$name.log" 2>&1; echo "   rc $? ; $(tail -3 "$out/$name.log" | tr '\n' '|')"
}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -c 'import jax, numpy, optax; print("jax", jax.__version__, "numpy", numpy.__version__, "optax", optax.__version__, jax.devices())'
# STEPS picks some of them (a lent GPU's minutes are few): STEPS="devices new_shapes" bash bench/gpu_checks.sh
for s in ${STEPS:-devices train gluon resnet core new_shapes profiler_example amp amp224 suite}; do
  case "$s" in
    devices) XLA_PYTHON_CLIENT_PREALLOCATE=false step devices 90 python3 -m pytest -q -p no:cacheprovider -n 8 \
                 tests/test_devices.py tests/test_context.py tests/test_ops_buckets.py ;;
    train) step train 60 python3 bench/bench_train.py --phases ;;
    gluon) step gluon 30 python3 bench/bench_gluon.py ;;
    resnet) step resnet 60 python3 bench/bench_resnet.py --rounds 3 --number 10 ;;
    core) step core 30 python3 bench/bench_core.py ;;
    new_shapes) step new_shapes 90 python3 bench/bench_new_shapes.py ;;
    profiler_example) step profiler_example 90 python3 bench/bench_profiler_example.py --no-jax ;;
    amp) step amp 120 python3 bench/bench_amp.py ;;
    # ImageNet-sized images, where the convolutions rather than the launches decide the step's time.
    amp224) step amp224_fp16 150 python3 bench/bench_amp.py --batch 128 --size 224
            step amp224_bf16 150 python3 bench/bench_amp.py --batch 128 --size 224 --target bfloat16 ;;
    # The suite with jax's default device on the GPU (gluonjax's default context stays cpu(0), as
    # MXNet's): each worker takes GPU memory as it needs it instead of jax's default 75% up front.
    suite) XLA_PYTHON_CLIENT_PREALLOCATE=false step suite "${SUITE_LIMIT:-240}" python3 -m pytest -v \
               -p no:cacheprovider -n 12 --timeout 120 tests --ignore tests/clients \
               --ignore tests/test_conformance.py --ignore tests/test_notebooks.py --ignore tests/test_dist.py ;;
    *) echo "unknown step $s"; exit 2 ;;
  esac
done
