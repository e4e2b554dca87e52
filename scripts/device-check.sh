#!/usr/bin/env bash
# One prepared run on a lent GPU machine (the `device` tool), from the repository root there:
#   here:   make device-kit     (.device/, git-ignored: the wheels of what the device image lacks, and the dev set)
#   device: run(command="bash scripts/device-check.sh", carry=[".device"], timeout_s=540)
# It installs the wheels and the project, records the GPU, runs the Triton kernel check (native kernel tests,
# kernel vs torch reference timings) and `make bench`'s benchmark on CUDA, and leaves every result under $OUT
# (steps.txt, gpu.txt, gpu_check.jsonl, bench-cuda.json, and a log per step). Each step has its own time limit,
# so a step that hangs still leaves the others' results. PY, KIT, BENCH_ARGS, GPU_CHECK_LIMIT and BENCH_LIMIT
# override the defaults; a rehearsal on a CPU, in a venv holding only what the image holds:
#   make device-kit DEVICE_PY=3.11 DEVICE_KIT=/tmp/kit
#   PY=/tmp/rehearse/bin/python KIT=/tmp/kit OUT=/tmp/out BENCH_ARGS="--sets demo20 --repeats 1" bash scripts/device-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python3}
KIT=${KIT:-.device}
OUT=${OUT:-device-results}
SITE=${SITE:-/tmp/airspace-site}
BENCH_ARGS=${BENCH_ARGS:-}
export PYTHONUNBUFFERED=1

if ! ls "$KIT"/wheels/*.whl >/dev/null 2>&1 || [ ! -f "$KIT/dev.jsonl" ]; then
    echo "no wheels or dev set in $KIT: run 'make device-kit' first (and carry $KIT)" >&2
    exit 2
fi
mkdir -p "$OUT"

step() {  # step NAME LIMIT_S COMMAND...: run it, log to $OUT/NAME.log, record its status and time
    local name=$1 limit=$2; shift 2
    local t0=$SECONDS
    timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
    local rc=$?
    echo "$name rc=$rc limit=${limit}s took=$((SECONDS - t0))s" | tee -a "$OUT/steps.txt"
    return $rc
}

step install 120 "$PY" -m pip install --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target "$SITE" "$KIT"/wheels/*.whl || exit 1
export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}" AIRSPACE_DEV_SET="$KIT/dev.jsonl"
# the project's airspace.* mapping over the top-level folders needs an install; nothing is fetched
step project 120 "$PY" -m pip install --no-index --no-deps --no-build-isolation -e . || exit 1
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || echo "no nvidia-smi"
  "$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.cuda.is_available())" 2>&1; } >"$OUT/gpu.txt"
step gpu_check "${GPU_CHECK_LIMIT:-180}" sh -c "'$PY' -m airspace.kernels.gpu_check >'$OUT/gpu_check.jsonl'"
# shellcheck disable=SC2086  # BENCH_ARGS is a list of flags
step bench "${BENCH_LIMIT:-300}" "$PY" -m airspace.model.bench --out "$OUT/bench-cuda.json" $BENCH_ARGS
