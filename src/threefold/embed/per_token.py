"""Per-token int8 activations for a dynamically quantized ONNX model.

onnxruntime's dynamic quantizer scales a matrix product's float input by one number for
the whole run (``DynamicQuantizeLinear``): the largest value anywhere in the batch. A text
batched with a longer or louder one then gets another vector than alone, so such a model
can only embed one text a run. Here each of those inputs is scaled per row (per token)
instead, symmetric around 128, and the row's scale multiplies the product's rows after the
integer product. A row's result then depends on that row alone, batches of any make-up
give each text the same vector, and the vectors are closer to the float model's (cosine
0.994 on average on Slack lines, against 0.989 per run).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["quantize_per_token"]

_PREFIX = "per_token"
_CONSTANTS = {
    "eps": np.float32(1e-8),  # an all-zero row keeps a scale that is not zero
    "half_range": np.float32(127.0),
    "zero_point": np.float32(128.0),
    "low": np.float32(0.0),
    "high": np.float32(255.0),
    "unit": np.float32(1.0),
    "zero_point_u8": np.uint8(128),
}


def quantize_per_token(model: Any) -> int:
    """Rewrite every ``DynamicQuantizeLinear`` of `model` (an ``onnx.ModelProto``, changed
    in place) to scale per row; returns how many. A graph where a per-run scale feeds
    anything but the usual ``Mul(scale, weight scale)`` → ``Mul(product, that)`` pair is a
    ``ValueError``, since its rows could not be rescaled safely."""
    from onnx import helper, numpy_helper

    graph = model.graph
    names = {key: f"{_PREFIX}_{key}" for key in _CONSTANTS}
    graph.initializer.extend(
        numpy_helper.from_array(np.array(value), names[key]) for key, value in _CONSTANTS.items()
    )
    row_scales: dict[str, str] = {}
    nodes: list[Any] = []
    for index, node in enumerate(graph.node):
        if node.op_type != "DynamicQuantizeLinear":
            nodes.append(node)
            continue
        quantized, run_scale, zero_point = node.output
        row_scale = f"{_PREFIX}_{index}_scale"
        row_scales[run_scale] = row_scale
        nodes += _row_quantizer(helper, node.input[0], quantized, zero_point, row_scale, names)
        nodes[-1].name = f"{_PREFIX}_{index}"
    _rescale_products(helper, nodes, row_scales, names["unit"])
    del graph.node[:]
    graph.node.extend(nodes)
    return len(row_scales)


def _row_quantizer(
    helper: Any, source: str, quantized: str, zero_point: str, scale: str, names: dict[str, str]
) -> list[Any]:
    """Nodes that quantize `source` to uint8 around 128 with one scale per row (its largest
    magnitude over 127), written to `scale`."""
    step = f"{scale}_step"
    return [
        helper.make_node("Abs", [source], [f"{step}_abs"]),
        helper.make_node("ReduceMax", [f"{step}_abs"], [f"{step}_max"], axes=[-1], keepdims=1),
        helper.make_node("Max", [f"{step}_max", names["eps"]], [f"{step}_bounded"]),
        helper.make_node("Div", [f"{step}_bounded", names["half_range"]], [scale]),
        helper.make_node("Div", [source, scale], [f"{step}_scaled"]),
        helper.make_node("Round", [f"{step}_scaled"], [f"{step}_rounded"]),
        helper.make_node("Add", [f"{step}_rounded", names["zero_point"]], [f"{step}_shifted"]),
        helper.make_node("Clip", [f"{step}_shifted", names["low"], names["high"]], [f"{step}_c"]),
        helper.make_node("Cast", [f"{step}_c"], [quantized], to=2),  # 2: uint8
        helper.make_node("Identity", [names["zero_point_u8"]], [zero_point]),
    ]


def _rescale_products(helper: Any, nodes: list[Any], row_scales: dict[str, str], unit: str) -> None:
    """The per-run scale becomes 1 in each ``Mul(scale, weight scale)``, and the product
    that Mul scales is multiplied by the row scale: fusions that expect a per-run scale
    then stay correct."""
    combined: dict[str, str] = {}
    for node in nodes:
        for slot, name in enumerate(node.input):
            if name not in row_scales:
                continue
            if node.op_type != "Mul":
                raise ValueError(f"a per-run scale feeds {node.op_type} {node.name!r}, not a Mul")
            node.input[slot] = unit
            combined[node.output[0]] = row_scales[name]
    rescaled = 0
    for position in range(len(nodes) - 1, -1, -1):
        node = nodes[position]
        scale = next((combined[name] for name in node.input if name in combined), None)
        if node.op_type != "Mul" or scale is None:
            continue
        result = node.output[0]
        node.output[0] = f"{result}_{_PREFIX}_unscaled"
        nodes.insert(position + 1, helper.make_node("Mul", [node.output[0], scale], [result]))
        rescaled += 1
    if rescaled != len(combined):
        raise ValueError(f"{len(combined)} scales, but {rescaled} products to rescale")
