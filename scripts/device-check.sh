#!/usr/bin/env bash
# Prepared runs on a lent GPU machine (the `device` tool), from the repository root there:
#   here:   make device-kit     (.device/, git-ignored: the wheels of what the device image lacks)
#   device: run(command="bash scripts/device-check.sh bench", carry=[".device"], timeout_s=540)
#           run(command="bash scripts/device-check.sh train", carry=[".device"], timeout_s=600)
# Both install the wheels and the project and record the GPU; results and the steps' output land under $OUT (steps.txt,
# gpu.txt, log.txt, ...), each step with its own time limit, so a step that hangs still leaves the others' results.
#   bench: the Triton kernel check (native kernel tests, kernel vs torch reference timings: gpu_check.jsonl); demo20
#          and composite5 end to end on CUDA, bf16, Clover and AR in one process (demo20-cuda.json: the latency
#          and the Clover/AR ratio); the archive throughput of both engines, 2000 rows, records as the CLI gets them
#          (throughput-cuda.json: msg/s, peak RSS and GPU memory); then `make bench`'s benchmark on CUDA
#          (bench-cuda.json). The most wanted numbers run first: a step cut by its limit leaves the earlier ones.
#   train: both engines continue from the shipped checkpoints for TRAIN_MINUTES wall minutes each on CUDA (bf16), one
#          after the other, the same seed, data stream and budget; each checkpoint comes back as $OUT/<arch>.tar (its
#          recipe records the hardware). Bench them here before shipping: tar -xf ar.tar -C runs/gpu, etc.
# PY, KIT, BENCH_ARGS, GPU_CHECK_LIMIT, DEMO_LIMIT, THROUGHPUT_N, THROUGHPUT_LIMIT, BENCH_LIMIT, TRAIN_MINUTES,
# TRAIN_ARGS override the defaults (bench: 480 s of step limits after setup, so it fits run(timeout_s=540) with a
# setup of a minute); a rehearsal on a CPU, in a venv holding only what the image holds:
#   make device-kit DEVICE_PY=3.11 DEVICE_KIT=/tmp/kit
#   PY=/tmp/rehearse/bin/python KIT=/tmp/kit OUT=/tmp/out BENCH_ARGS="--sets demo20 --repeats 1" THROUGHPUT_N=40 \
#     bash scripts/device-check.sh bench        (or TRAIN_MINUTES=0.2 ... train)
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python3}
KIT=${KIT:-.device}
OUT=${OUT:-device-results}
SITE=${SITE:-/tmp/airspace-site}
BENCH_ARGS=${BENCH_ARGS:-}
MODE=${1:-bench}
export PYTHONUNBUFFERED=1

case "$MODE" in bench|train) ;; *) echo "usage: $0 [bench|train]" >&2; exit 2 ;; esac

if ! ls "$KIT"/wheels/*.whl >/dev/null 2>&1; then
    echo "no wheels in $KIT: run 'make device-kit' first (and carry $KIT)" >&2
    exit 2
fi
mkdir -p "$OUT"

# at most 8 files come back from $OUT: every step's output goes into the one log.txt, each under its own heading
step() {  # step NAME LIMIT_S COMMAND...: run it, its output appended to $OUT/log.txt, its status and time recorded
    local name=$1 limit=$2; shift 2
    local t0=$SECONDS
    echo "===== $name" >>"$OUT/log.txt"
    timeout "$limit" "$@" >>"$OUT/log.txt" 2>&1
    local rc=$?
    echo "$name rc=$rc limit=${limit}s took=$((SECONDS - t0))s" | tee -a "$OUT/steps.txt"
    return $rc
}

# the wheels into $SITE, then the project's airspace.* mapping over the top-level folders (an editable install;
# nothing is fetched)
export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
step setup 240 sh -c "'$PY' -m pip install --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target '$SITE' '$KIT'/wheels/*.whl && '$PY' -m pip install --no-index --no-deps --no-build-isolation -e ." \
    || exit 1
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || echo "no nvidia-smi"
  "$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.cuda.is_available())" 2>&1; } >"$OUT/gpu.txt"
if [ "$MODE" = bench ]; then
    step gpu_check "${GPU_CHECK_LIMIT:-120}" sh -c "'$PY' -m airspace.kernels.gpu_check >'$OUT/gpu_check.jsonl'"
    step demo20 "${DEMO_LIMIT:-60}" "$PY" -m airspace.eval.bench --sets demo20,composite5 --engines clover,ar \
        --repeats 5 --out "$OUT/demo20-cuda.json"
    step throughput "${THROUGHPUT_LIMIT:-120}" "$PY" -m airspace.eval.throughput --engines clover,ar \
        --n "${THROUGHPUT_N:-2000}" --no-busy --out "$OUT/throughput-cuda.json"
    # shellcheck disable=SC2086  # BENCH_ARGS is a list of flags
    step bench "${BENCH_LIMIT:-180}" "$PY" -m airspace.eval.bench --out "$OUT/bench-cuda.json" $BENCH_ARGS
    exit 0
fi
TRAIN_MINUTES=${TRAIN_MINUTES:-4}
# defaults for a GPU: 8x the CPU stages' batch, the last stage's recipe otherwise (data/checkpoints/README.md)
TRAIN_ARGS=${TRAIN_ARGS:---seed 7 --batch-tokens 24576 --lr 5e-4 --vocab-rows 20000 --val-n 128 --save-every 100 \
  --short-frac 0.0 --byte-dropout 0.03 --log-every 50}
limit=$(awk -v m="$TRAIN_MINUTES" 'BEGIN { printf "%d", m * 60 + 120 }')  # the budget + loading and the final eval
for arch in clover ar; do
    # shellcheck disable=SC2086  # TRAIN_ARGS is a list of flags
    step "train_$arch" "$limit" "$PY" -m airspace.model.training --arch "$arch" --init "data/checkpoints/$arch" \
        --minutes "$TRAIN_MINUTES" --out "/tmp/train/$arch" $TRAIN_ARGS
    [ -f "/tmp/train/$arch/model.safetensors" ] && tar -cf "$OUT/$arch.tar" -C /tmp/train "$arch"
done
