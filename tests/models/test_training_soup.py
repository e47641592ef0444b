"""training/soup.py: the mean of graphs fine-tuned from one start, and the graphs it refuses."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

SOUP = Path(__file__).parents[2] / "training" / "soup.py"


def graph(path: Path, weight: np.ndarray, bias: np.ndarray, data: str = "abc") -> Path:
    """A one-layer graph, `x @ weight + bias`, with a shape constant among its
    initializers, and its training record beside it (as finetune.py writes both)."""
    nodes = [
        helper.make_node("MatMul", ["x", "weight"], ["mixed"]),
        helper.make_node("Add", ["mixed", "bias"], ["summed"]),
        helper.make_node("Reshape", ["summed", "shape"], ["y"]),
    ]
    model = helper.make_model(
        helper.make_graph(
            nodes,
            "top",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, weight.shape[0]])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [weight.shape[1]])],
            [
                numpy_helper.from_array(weight.astype(np.float32), "weight"),
                numpy_helper.from_array(bias.astype(np.float32), "bias"),
                numpy_helper.from_array(np.array([weight.shape[1]], dtype=np.int64), "shape"),
            ],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    onnx.save(model, str(path))
    path.with_suffix(".json").write_text(json.dumps({"data_sha256": data, "seed": path.stem}))
    return path


def soup(out: Path, *runs: Path, flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SOUP), str(out), *map(str, runs), *flags],
        capture_output=True,
        text=True,
    )


def test_the_soup_is_the_mean_of_its_graphs_and_runs(tmp_path: Path) -> None:
    ones, threes = np.ones((2, 3)), np.full((2, 3), 3.0)
    a = graph(tmp_path / "a.onnx", ones, np.zeros(3))
    b = graph(tmp_path / "b.onnx", threes, np.full(3, 2.0))
    done = soup(tmp_path / "soup.onnx", a, b)
    assert done.returncode == 0, done.stderr
    session = ort.InferenceSession(str(tmp_path / "soup.onnx"))
    (y,) = session.run(None, {"x": np.array([[1.0, 1.0]], dtype=np.float32)})
    assert np.allclose(y, [5.0, 5.0, 5.0])  # weights of 2 each, two inputs, bias 1
    record = json.loads((tmp_path / "soup.json").read_text())
    assert record["soup_of"] == ["a.onnx", "b.onnx"]


def test_graphs_of_another_shape_or_other_data_are_refused(tmp_path: Path) -> None:
    a = graph(tmp_path / "a.onnx", np.ones((2, 3)), np.zeros(3))
    wider = graph(tmp_path / "wider.onnx", np.ones((2, 4)), np.zeros(4))
    other = graph(tmp_path / "other.onnx", np.ones((2, 3)), np.zeros(3), data="def")
    refused = soup(tmp_path / "soup.onnx", a, wider)
    assert refused.returncode != 0 and "not of the same shape" in refused.stderr
    refused = soup(tmp_path / "soup.onnx", a, other)
    assert refused.returncode != 0 and "different data" in refused.stderr
    refused = soup(tmp_path / "soup.onnx", a)
    assert refused.returncode != 0 and "at least two" in refused.stderr
    assert not (tmp_path / "soup.onnx").exists()


def test_graphs_of_other_data_are_averaged_when_asked_and_their_data_kept(tmp_path: Path) -> None:
    """Session 51's S52: G52 (on every line) first, G51 (on fewer) second; the soup's
    record names the first run's data, and every run's."""
    more = graph(tmp_path / "more.onnx", np.ones((2, 3)), np.zeros(3), data="all-lines")
    fewer = graph(tmp_path / "fewer.onnx", np.full((2, 3), 3.0), np.zeros(3), data="fewer")
    done = soup(tmp_path / "soup.onnx", more, fewer, flags=("--mixed-data",))
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "soup.json").read_text())
    assert record["data_sha256"] == "all-lines"
    assert record["soup_data"] == ["all-lines", "fewer"]
    session = ort.InferenceSession(str(tmp_path / "soup.onnx"))
    (y,) = session.run(None, {"x": np.array([[1.0, 1.0]], dtype=np.float32)})
    assert np.allclose(y, [4.0, 4.0, 4.0])
