"""model.ship: the shipped form stores float16 and loads as float32; the shipped checkpoints are in that form."""

from __future__ import annotations

import json

import pytest
import torch
from model_fixtures import small_model
from safetensors.torch import load_file

from airspace.model.checkpoint import load_checkpoint, safetensors_header, save_checkpoint
from airspace.model.engine import DEFAULT_CHECKPOINTS
from airspace.model.ship import ship

torch.set_num_threads(1)


def _small(tmp_path, scale: float = 0.1):
    model, tok = small_model(["PSN N480930 E0161028 RADIUS 1NM F) GND G) FL130"], noise=scale)
    save_checkpoint(tmp_path / "f32", model, tok, recipe={"seed": 0}, metrics={"val_exact": 0.0})
    return model, tok


def test_the_shipped_form_is_float16_on_disk_float32_in_memory_and_half_the_size(tmp_path):
    model, _ = _small(tmp_path)
    ship(tmp_path / "f32", tmp_path / "half", measured="test")
    assert {d for d, _ in safetensors_header(tmp_path / "half" / "model.safetensors").values()} == {"F16"}
    f32_size = (tmp_path / "f32" / "model.safetensors").stat().st_size
    assert (tmp_path / "half" / "model.safetensors").stat().st_size < 0.55 * f32_size
    loaded, _ = load_checkpoint(tmp_path / "half")
    for k, v in model.state_dict().items():
        got = loaded.state_dict()[k]
        assert got.dtype == v.dtype == torch.float32
        assert torch.equal(got, v.to(torch.float16).float()), k  # exactly the float16 rounding, nothing else
    recipe = json.loads((tmp_path / "half" / "recipe.json").read_text())
    assert recipe["seed"] == 0 and recipe["storage"] == {"dtype": "float16", "compute": "float32",
                                                         "command": "python -m airspace.model.ship",
                                                         "measured": "test"}


def test_a_weight_beyond_float16s_range_is_refused_not_shipped(tmp_path):
    _small(tmp_path, scale=1e5)
    with pytest.raises(ValueError, match="exceed float16's range"):
        ship(tmp_path / "f32", tmp_path / "half")
    assert not (tmp_path / "half").exists()


@pytest.mark.parametrize("arch", ["clover", "ar"])
def test_the_shipped_checkpoints_are_in_the_shipped_form(arch):
    ck = DEFAULT_CHECKPOINTS[arch]
    sd = load_file(str(ck / "model.safetensors"))
    assert {v.dtype for v in sd.values()} == {torch.float16}
    assert json.loads((ck / "recipe.json").read_text())["storage"]["dtype"] == "float16"
    model, _ = load_checkpoint(ck)
    assert {p.dtype for p in model.parameters()} == {torch.float32}
