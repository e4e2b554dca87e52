"""`make gpu-check`: run the kernel tests natively on CUDA, then time every Triton kernel against its torch
reference (and the GDN chunk kernel against fla-core's ``chunk_gated_delta_rule`` where it imports).

    python -m airspace.kernels.gpu_check            # on a CUDA machine
    python -m airspace.kernels.gpu_check --dry-run  # on CPU: interpreter mode, tiny shapes, checks the plumbing
    python -m airspace.kernels.gpu_check --aot      # no GPU needed: compile every kernel for sm_90, report
                                                    # registers and spills (the tile sizes were chosen this way)

Prints one JSON line per check: {"name", "shapes", "dtype", "max_abs_err", "ms_kernel", "ms_reference",
"ms_fla" (GDN chunk only), ...}. Exit status 0 when every kernel ran and stayed within its tolerance (and, on
CUDA, the native test run passed), 1 otherwise, 2 when no CUDA device is there and --dry-run was not given.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _emit(obj: dict) -> None:
    print(json.dumps(obj), flush=True)


def _bench(fn, cuda: bool, reps: int) -> float:
    """Milliseconds per call: triton's do_bench on CUDA, one timed call on CPU (already warmed by the check)."""
    if cuda:
        import triton.testing

        return float(triton.testing.do_bench(fn, warmup=10, rep=max(20, reps)))
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1e3


def _err(a, b) -> float:
    return float((a.float() - b.float()).abs().max()) if a.numel() else 0.0


def _cases(dry: bool):
    """(name, shape dict, dtype name) per timed configuration; tiny ones for the dry run."""
    if dry:
        return {
            "gdn_chunk": [dict(B=1, T=20, H=2, K=16, V=16, C=16)],
            "gdn_recurrent": [dict(B=2, T=1, H=2, K=16, V=16)],
            "block_attn": [dict(B=1, H=2, L=8, D=16, P=12)],
            "moe": [dict(N=24, D=16, F=32, E=4, k=2)],
            "select": [dict(B=2, L=8, V=300)],
        }
    return {
        "gdn_chunk": [dict(B=16, T=256, H=4, K=64, V=64, C=32), dict(B=8, T=1024, H=8, K=128, V=128, C=64)],
        "gdn_recurrent": [dict(B=32, T=1, H=4, K=64, V=64), dict(B=64, T=1, H=8, K=128, V=128)],
        "block_attn": [dict(B=32, H=4, L=32, D=64, P=0), dict(B=32, H=4, L=32, D=64, P=512)],
        "moe": [dict(N=1024, D=256, F=512, E=8, k=2), dict(N=8192, D=1024, F=1024, E=16, k=2)],
        "select": [dict(B=32, L=32, V=512), dict(B=32, L=32, V=32768)],
    }


def run_checks(dry: bool, reps: int = 50) -> bool:
    import torch
    import torch.nn.functional as F

    from airspace.kernels import ops

    cuda = not dry
    dev = "cuda" if cuda else "cpu"
    dtypes = [torch.float32] if dry else [torch.bfloat16, torch.float32]
    gen = torch.Generator(device="cpu").manual_seed(0)
    rnd = lambda *s, dt=torch.float32: torch.randn(*s, generator=gen).to(dev, dt)  # noqa: E731
    ok = True
    try:
        from fla.ops.gated_delta_rule import chunk_gated_delta_rule as fla_chunk
        fla_note = None
    except Exception as exc:  # fla-core absent (or no CUDA): say so in the output
        fla_chunk, fla_note = None, f"fla-core not importable: {type(exc).__name__}: {exc}"[:200]

    def both(call):
        with torch.no_grad():
            with ops.backend("torch"):
                ref = call()
            with ops.backend("triton"):
                out = call()
            with ops.backend("triton"):
                ms_k = _bench(call, cuda, reps)
            with ops.backend("torch"):
                ms_r = _bench(call, cuda, reps)
        return out, ref, ms_k, ms_r

    for dt in dtypes:
        tol = 1e-3 if dt == torch.float32 else 5e-2
        dname = str(dt).replace("torch.", "")
        for s in _cases(dry)["gdn_chunk"]:
            B, T, H, K, V, C = (s[x] for x in "BTHKVC")
            q = F.normalize(rnd(B, T, H, K), dim=-1).to(dt)
            k = F.normalize(rnd(B, T, H, K), dim=-1).to(dt)
            v = rnd(B, T, H, V, dt=dt)
            g = F.logsigmoid(rnd(B, T, H)) * 0.5
            beta = torch.sigmoid(rnd(B, T, H))
            h0 = rnd(B, H, K, V) * 0.1
            call = lambda: ops.chunk_gated_delta_rule(q, k, v, g, beta, initial_state=h0, chunk_size=C)  # noqa: E731
            out, ref, ms_k, ms_r = both(call)
            rec = dict(name="gdn_chunk", shapes=s, dtype=dname, max_abs_err=_err(out[0], ref[0]),
                       max_abs_err_state=_err(out[1], ref[1]), ms_kernel=ms_k, ms_reference=ms_r, ms_fla=None)
            if fla_chunk is not None and cuda:
                try:
                    with torch.no_grad():
                        fcall = lambda: fla_chunk(q=q, k=k, v=v, g=g.to(dt), beta=beta.to(dt), scale=K ** -0.5,  # noqa: E731
                                                  initial_state=h0, output_final_state=True)
                        fo = fcall()
                        rec["ms_fla"] = _bench(fcall, cuda, reps)
                        rec["max_abs_err_fla"] = _err(fo[0], ref[0])
                except Exception as exc:
                    rec["fla_error"] = f"{type(exc).__name__}: {exc}"[:200]
            elif fla_note:
                rec["fla"] = fla_note
            rec["ok"] = rec["max_abs_err"] <= tol * max(1.0, float(ref[0].abs().max())) and rec["max_abs_err_state"] <= tol * 10
            ok &= rec["ok"]
            _emit(rec)

        for s in _cases(dry)["gdn_recurrent"]:
            B, T, H, K, V = (s[x] for x in "BTHKV")
            q = F.normalize(rnd(B, T, H, K), dim=-1).to(dt)
            k = F.normalize(rnd(B, T, H, K), dim=-1).to(dt)
            v = rnd(B, T, H, V, dt=dt)
            g = F.logsigmoid(rnd(B, T, H))
            beta = torch.sigmoid(rnd(B, T, H))
            h0 = rnd(B, H, K, V) * 0.1
            call = lambda: ops.fused_recurrent_gated_delta_rule(q, k, v, g, beta, initial_state=h0)  # noqa: E731
            out, ref, ms_k, ms_r = both(call)
            rec = dict(name="gdn_recurrent", shapes=s, dtype=dname, max_abs_err=_err(out[0], ref[0]),
                       max_abs_err_state=_err(out[1], ref[1]), ms_kernel=ms_k, ms_reference=ms_r)
            rec["ok"] = rec["max_abs_err"] <= tol * 10 and rec["max_abs_err_state"] <= tol
            ok &= rec["ok"]
            _emit(rec)

        for s in _cases(dry)["block_attn"]:
            B, H, L, D, P = (s[x] for x in "BHLDP")
            q, k, v = rnd(B, H, L, D, dt=dt), rnd(B, H, L, D, dt=dt), rnd(B, H, L, D, dt=dt)
            kw = dict(key_mask=torch.rand(B, L, generator=gen).to(dev) < 0.9)
            if P:
                kw.update(prefix_k=rnd(B, H, P, D, dt=dt), prefix_v=rnd(B, H, P, D, dt=dt),
                          prefix_mask=torch.rand(B, P, generator=gen).to(dev) < 0.9)
            else:
                kw.update(extra_logit=rnd(B, H, L), extra_value=rnd(B, H, L, D, dt=dt))
            call = lambda: ops.block_attention(q, k, v, **kw)  # noqa: E731
            out, ref, ms_k, ms_r = both(call)
            rec = dict(name="block_attn", shapes=s, dtype=dname, max_abs_err=_err(out, ref), ms_kernel=ms_k,
                       ms_reference=ms_r)
            rec["ok"] = rec["max_abs_err"] <= tol
            ok &= rec["ok"]
            _emit(rec)

        for s in _cases(dry)["moe"]:
            N, D, Fd, E, top = (s[x] for x in ("N", "D", "F", "E", "k"))
            x = rnd(N, D, dt=dt)
            logits = rnd(N, E)
            wg, wu = rnd(E, D, Fd, dt=dt) * D ** -0.5, rnd(E, D, Fd, dt=dt) * D ** -0.5
            wd = rnd(E, Fd, D, dt=dt) * Fd ** -0.5
            call = lambda: ops.moe_ffn(x, logits, wg, wu, wd, top)  # noqa: E731
            out, ref, ms_k, ms_r = both(call)
            rec = dict(name="moe", shapes=s, dtype=dname, max_abs_err=_err(out[0], ref[0]), ms_kernel=ms_k,
                       ms_reference=ms_r, same_routing=bool(torch.equal(out[2], ref[2])))
            rec["ok"] = rec["max_abs_err"] <= tol * max(1.0, float(ref[0].abs().max())) and rec["same_routing"]
            ok &= rec["ok"]
            _emit(rec)

        for s in _cases(dry)["select"]:
            B, L, V = (s[x] for x in "BLV")
            logits = (rnd(B, L, V) * 4).to(dt)
            masked = torch.rand(B, L, generator=gen).to(dev) < 0.7
            call = lambda: ops.confidence_select(logits, masked, 0.9)  # noqa: E731
            out, ref, ms_k, ms_r = both(call)
            rec = dict(name="select", shapes=s, dtype=dname, max_abs_err=_err(out[2], ref[2]),
                       same_tokens=bool(torch.equal(out[1], ref[1])), same_commit=bool(torch.equal(out[0], ref[0])),
                       ms_kernel=ms_k, ms_reference=ms_r)
            rec["ok"] = rec["max_abs_err"] <= 1e-5 and rec["same_tokens"] and rec["same_commit"]
            ok &= rec["ok"]
            _emit(rec)
    return ok


def run_native_tests() -> bool:
    """The kernel test files with the interpreter off, so their tensors live on CUDA and the kernels compile."""
    env = dict(os.environ, TRITON_INTERPRET="0")
    files = sorted(str(p) for p in (REPO / "tests").glob("test_kernels_*.py"))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files], cwd=REPO,
                          env=env, capture_output=True, text=True)
    lines = [ln for ln in (proc.stdout + proc.stderr).splitlines() if ln.strip()]
    failed = [ln for ln in lines if ln.startswith("FAILED") or ln.startswith("ERROR")]
    _emit(dict(name="tests_native", returncode=proc.returncode, summary=lines[-1] if lines else "",
               failed=failed[:20], seconds=round(time.perf_counter() - t0, 1)))
    return proc.returncode == 0


def _aot_configs():
    """(name, kernel, argument types, constexprs, num_warps): the launch configurations the wrappers use."""
    from airspace.kernels.block_attn.triton_kernel import _block_attn_fwd_kernel
    from airspace.kernels.gdn.chunk import _chunk_gdn_fwd_kernel
    from airspace.kernels.gdn.fused_recurrent import _fused_recurrent_fwd_kernel
    from airspace.kernels.moe.triton_kernel import _moe_down_kernel, _moe_gate_up_kernel
    from airspace.kernels.select.triton_kernel import _max_prob_kernel, _tau_rule_kernel

    f32 = "*fp32"
    out = []
    for dt, low, kd in (("*bf16", True, 128), ("*fp32", False, 64)):
        sig = dict(q=dt, k=dt, v=dt, g=f32, beta=f32, o=dt, h0=f32, ht=f32, hs=f32, T="i32", H="i32", K="i32",
                   V="i32", SUB="i32", NS="i32", EVERY="i32", NC="i32", scale="fp32")
        out.append((f"gdn_chunk {dt[1:]} K=V={kd}", _chunk_gdn_fwd_kernel, sig,
                    dict(BC=16, BK=kd, BV=32, HAS_H0=True, STORE_STATES=True, DOT_PREC="tf32" if low else "tf32x3"), 8))
        sig = dict(q=dt, k=dt, v=dt, g=f32, beta=f32, o=dt, h0=f32, ht=f32, T="i32", H="i32", K="i32", V="i32",
                   scale="fp32")
        out.append((f"gdn_recurrent {dt[1:]} K=128", _fused_recurrent_fwd_kernel, sig, dict(BK=128, BV=32, HAS_H0=True), 4))
        sig = dict(q=dt, k=dt, v=dt, el=f32, ev=dt, pk=dt, pv=dt, pmask="*u8", kmask="*u8", o=dt, H="i32", L="i32",
                   P="i32", D="i32", DV="i32", scale="fp32")
        out.append((f"block_attn {dt[1:]} D=64", _block_attn_fwd_kernel, sig,
                    dict(BM=64 if low else 32, BN=32, BD=64, BDV=64, HAS_EXTRA=True, HAS_PREFIX=True, HAS_PMASK=True,
                         HAS_KMASK=True, LOW=low), 8))
        moe = dict(tok="*i32", tile_e="*i32", tile_r0="*i32", row_end="*i32", D="i32", F="i32", E="i32")
        cm = dict(BM=64, BD=64 if low else 32, BF=64, LOW=low)
        out.append((f"moe_gate_up {dt[1:]}", _moe_gate_up_kernel, dict(x=dt, wg=dt, wu=dt, h=dt, **moe), cm, 8))
        out.append((f"moe_down {dt[1:]}", _moe_down_kernel, dict(h=dt, wd=dt, ys=f32, wts=f32, **moe), cm, 8))
        out.append((f"select_max_prob {dt[1:]}", _max_prob_kernel, dict(logits=dt, conf=f32, token="*i64", V="i32"),
                    dict(BV=1024), 4))
    out.append(("select_tau_rule", _tau_rule_kernel,
                dict(conf=f32, masked="*i8", tau=f32, commit="*i8", L="i32", min_commit="i32"), dict(BL=32), 4))
    return out


def run_aot(arch: int = 90) -> bool:
    """Compile every kernel for sm_<arch> without a GPU (triton's bundled ptxas) and report registers/spills."""
    import subprocess as sp
    import tempfile

    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    cuobjdump = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
    ok = True
    for name, fn, sig, consts, warps in _aot_configs():
        rec = dict(name="aot", kernel=name, arch=f"sm_{arch}", num_warps=warps)
        try:
            full = {a: ("constexpr" if a in consts else sig[a]) for a in fn.arg_names}
            t0 = time.perf_counter()
            compiled = triton.compile(ASTSource(fn, full, consts), target=GPUTarget("cuda", arch, 32),
                                      options={"num_warps": warps})
            rec["compile_s"] = round(time.perf_counter() - t0, 2)
            rec["shared_bytes"] = compiled.metadata.shared
            if cuobjdump.exists() and "cubin" in compiled.asm:
                with tempfile.NamedTemporaryFile(suffix=".cubin") as fh:
                    fh.write(compiled.asm["cubin"])
                    fh.flush()
                    usage = sp.run([str(cuobjdump), "--dump-resource-usage", fh.name], capture_output=True, text=True).stdout
                for tok in " ".join(ln for ln in usage.splitlines() if "REG:" in ln).split():
                    key, _, val = tok.partition(":")
                    if key in ("REG", "STACK", "LOCAL") and val.isdigit():
                        rec[key.lower()] = int(val)
        except Exception as exc:
            rec["error"] = f"{type(exc).__name__}: {exc}"[:300]
            ok = False
        _emit(rec)
    return ok


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dry-run", action="store_true", help="CPU, Triton interpreter, tiny shapes: check the plumbing")
    ap.add_argument("--aot", action="store_true", help="no GPU needed: compile every kernel for sm_90 and report "
                    "registers/spills")
    ap.add_argument("--no-tests", action="store_true", help="skip the native pytest run on CUDA")
    ap.add_argument("--reps", type=int, default=50, help="timing budget per call (ms of do_bench repetition)")
    args = ap.parse_args(argv)
    if args.aot:
        os.environ["TRITON_INTERPRET"] = "0"            # real JIT functions, compiled ahead of time
        return 0 if run_aot() else 1
    if args.dry_run:
        os.environ["TRITON_INTERPRET"] = "1"            # before anything imports triton
    import torch

    torch.set_num_threads(min(4, torch.get_num_threads()))
    if not args.dry_run and not torch.cuda.is_available():
        _emit(dict(name="gpu_check", error="no CUDA device here; use --dry-run to check the plumbing on CPU"))
        return 2
    if not args.dry_run:
        os.environ["TRITON_INTERPRET"] = "0"
    header = dict(name="gpu_check", dry_run=args.dry_run, torch=torch.__version__,
                  device=torch.cuda.get_device_name(0) if torch.cuda.is_available() and not args.dry_run else "cpu")
    try:
        import triton
        header["triton"] = triton.__version__
    except Exception as exc:
        header["triton"] = f"not importable: {exc}"
    _emit(header)
    ok = True
    if not args.dry_run and not args.no_tests:
        ok &= run_native_tests()
    ok &= run_checks(args.dry_run, args.reps)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
