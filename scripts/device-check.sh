#!/usr/bin/env bash
# One prepared run on a lent GPU machine (the `device` tool), from the repository root there:
#   here:   make device-wheels            (the packages its image lacks, as wheels in .whl/, git-ignored)
#   device: run(command="bash scripts/device-check.sh", carry=[".whl"], timeout_s=540)
# It installs the wheels and the project, prints the GPU, runs the Triton kernel check (native kernel tests,
# kernel vs torch reference timings) and `make bench`'s benchmark on CUDA, and leaves every result under $OUT
# (gpu.txt, gpu_check.jsonl, bench-cuda.json, and the logs). Each step has its own time limit, so a step that
# hangs still leaves the others' results. PY, WHEELS, BENCH_ARGS and the *_LIMIT variables override the defaults
# (a CPU rehearsal here: PY=/tmp/rehearse/bin/python WHEELS=/tmp/whl311 OUT=/tmp/out bash scripts/device-check.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python3}
WHEELS=${WHEELS:-.whl}
OUT=${OUT:-device-results}
SITE=${SITE:-/tmp/airspace-site}
BENCH_ARGS=${BENCH_ARGS:-}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1

step() {  # step NAME LIMIT_S COMMAND...: run, log to $OUT/NAME.log, record its status, never stop the script
    local name=$1 limit=$2; shift 2
    local t0=$SECONDS
    timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
    local rc=$?
    echo "$name rc=$rc ${limit}s-limit took=$((SECONDS - t0))s" | tee -a "$OUT/steps.txt"
    return $rc
}

ls "$WHEELS"/*.whl >/dev/null 2>&1 || { echo "no wheels in $WHEELS: run 'make device-wheels' first" >&2; exit 2; }
step install 120 "$PY" -m pip install --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target "$SITE" "$WHEELS"/*.whl || exit 1
export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
# the project's airspace.* mapping over the top-level folders needs an install; nothing is fetched
step project 120 "$PY" -m pip install --no-index --no-deps --no-build-isolation -e . || exit 1
(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || echo "no nvidia-smi") >"$OUT/gpu.txt" 2>&1
"$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.cuda.is_available())" >>"$OUT/gpu.txt" 2>&1
step gpu_check "${GPU_CHECK_LIMIT:-180}" sh -c "'$PY' -m airspace.kernels.gpu_check >'$OUT/gpu_check.jsonl'"
# shellcheck disable=SC2086  # BENCH_ARGS is a list of flags
step bench "${BENCH_LIMIT:-300}" "$PY" -m airspace.model.bench --out "$OUT/bench-cuda.json" $BENCH_ARGS
