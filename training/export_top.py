"""Quantize the fine-tuned top layers (finetune.py's float graph), measure them on the
generated held-out tenth and on the written dev lines (training/written.py), and ship them
with their manifest.

    .venv/bin/python training/export_top.py /tmp/reader_lower.npz /tmp/reader_top.onnx

Quantizes with onnxruntime's own dynamic quantizer (int8 weights per output channel, as the
shared MiniLM) and ships the int8 graph unless its span F1 on the written dev lines falls
more than --tolerance below the float graph's; writes reader_top.onnx and reader_tuned.json
(sizes, the data's sha256 and files, the training record, held-out metrics) into
src/threefold/models/reader/data/, or a candidate's folder (`--out`: compared there with
benchmarks/frozen_sets.py --manifest before anything ships).
Runs in the library's venv: onnxruntime only.
"""

import argparse
import hashlib
import json
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from onnxruntime.quantization import QuantType, quantize_dynamic
from onnxruntime.quantization.shape_inference import quant_pre_process

from threefold.embed.minilm import MODEL_NAME
from threefold.models.reader import DATA as OUT
from threefold.models.reader import FROZEN, TUNED
from threefold.models.reader.heads import TopHeads, spans
from threefold.models.reader.labels import tags

HERE = Path(__file__).parent
GRAPH = "reader_top.onnx"

from written import (  # noqa: E402  (training/ is the script's folder)
    GENERATED_HELD,
    ROLE_NAMES,
    SWAPPED_PERCENT,
    UNPUNCTUATED_PERCENT,
    WRITTEN_DEV,
    training_set,
)


def held_out_metrics(graph: Path, lower: dict, rows: list[dict], held: np.ndarray) -> dict:
    """Token tag accuracy and span precision and recall (label and edges exact), as
    train.py measures the frozen heads."""
    from threefold.embed.minilm import MiniLMEmbedder
    from threefold.models.reader.heads import encode

    heads = TopHeads.load(graph)
    tokenizer = MiniLMEmbedder().tokenizer
    starts = np.concatenate([[0], np.cumsum(lower["lengths"])[:-1]])
    right_tokens = tokens = gold = found = right = 0
    for index in held:
        at, length = starts[index], lower["lengths"][index]
        first, count = int(lower["firsts"][index]), int(lower["counts"][index])
        if not count:
            continue
        states = lower["states"][at : at + length].astype(np.float32)
        tag_p, mod_p, subj_p = heads.read(states, first, count)
        truth_tags = lower["tag"][at + first : at + first + count]
        right_tokens += int((tag_p.argmax(1) == truth_tags).sum())
        tokens += count
        row = rows[index]
        offsets = encode(tokenizer, row["text"], row["previous"]).offsets
        said = {
            (s.start, s.end, s.label) for s in spans(row["text"], offsets, tag_p, mod_p, subj_p)
        }
        truth = {(s, e, label) for s, e, label, *_ in row["spans"]}
        gold, found, right = gold + len(truth), found + len(said), right + len(truth & said)
    precision, recall = right / max(found, 1), right / max(gold, 1)
    return {
        "token_tag_accuracy": round(right_tokens / max(tokens, 1), 4),
        "span_precision": round(precision, 4),
        "span_recall": round(recall, 4),
        "span_f1": round(2 * precision * recall / max(precision + recall, 1e-9), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lower", type=Path, help="the states encode_lower.py wrote")
    parser.add_argument("graph", type=Path, help="finetune.py's float graph")
    parser.add_argument("--tolerance", type=float, default=0.005)
    parser.add_argument(
        "--trial", action="store_true", help="measure the int8 graph only; ship nothing"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=OUT,
        help="where to write the graph and its manifest (a candidate's folder; default: shipped)",
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    data = training_set()
    rows = data.rows
    record = json.loads(args.graph.with_suffix(".json").read_text())
    if record["data_sha256"] != data.digest:
        raise SystemExit(f"{args.graph} was trained on other data than training/ holds now")
    with np.load(args.lower) as kept:
        lower = {k: kept[k] for k in kept.files}
    held = np.flatnonzero(data.roles == GENERATED_HELD)
    dev = np.flatnonzero(data.roles == WRITTEN_DEV)
    with tempfile.TemporaryDirectory() as work:
        prepared, quantized = Path(work) / "prepared.onnx", Path(work) / "int8.onnx"
        quant_pre_process(str(args.graph), str(prepared), skip_symbolic_shape=True)
        quantize_dynamic(
            str(prepared), str(quantized), weight_type=QuantType.QInt8, per_channel=True
        )
        if args.trial:  # a trial of a design: its figures, nothing shipped
            print("written dev, int8:", held_out_metrics(quantized, lower, rows, dev))
            print("generated held-out, int8:", held_out_metrics(quantized, lower, rows, held))
            return
        float_metrics = held_out_metrics(args.graph, lower, rows, held)
        int8_metrics = held_out_metrics(quantized, lower, rows, held)
        float_dev = held_out_metrics(args.graph, lower, rows, dev)
        int8_dev = held_out_metrics(quantized, lower, rows, dev)
        print("generated held-out, float:", float_metrics)
        print("generated held-out, int8: ", int8_metrics)
        print("written dev, float:", float_dev)
        print("written dev, int8: ", int8_dev)
        use_int8 = int8_dev["span_f1"] >= float_dev["span_f1"] - args.tolerance
        shutil.copyfile(quantized if use_int8 else args.graph, args.out / GRAPH)
    frozen = json.loads((OUT / FROZEN).read_text())
    shipped = (args.out / GRAPH).read_bytes()
    manifest = {
        "graph": GRAPH,
        "graph_sha256": hashlib.sha256(shipped).hexdigest(),
        "graph_bytes": len(shipped),
        "int8": use_int8,
        "encoder": MODEL_NAME,
        "lower_layers": record["lower_layers"],
        "tuned_layers": record.get("tuned_layers", [5, 6]),
        "data": "training/data/utterances.jsonl + training/written/*.txt (training/written.py)",
        "data_sha256": record["data_sha256"],
        "data_files": data.files,
        # The data's hash covers the files; the other forms of a written line come from code.
        "written_forms": {
            "unpunctuated_percent": UNPUNCTUATED_PERCENT,
            "swapped_percent": SWAPPED_PERCENT,
        },
        "utterances": len(rows),
        "utterances_by_role": {
            name: int((data.roles == role).sum()) for role, name in enumerate(ROLE_NAMES)
        },
        "held_out_utterances": len(held),
        "held_out_metrics": int8_metrics if use_int8 else float_metrics,
        "held_out_metrics_float": float_metrics,
        "held_out_metrics_int8": int8_metrics,
        "written_dev_metrics": int8_dev if use_int8 else float_dev,
        "written_dev_metrics_float": float_dev,
        "written_dev_metrics_int8": int8_dev,
        "training": record,
        "tags": list(tags()),
        "exported": datetime.now(UTC).isoformat(timespec="seconds"),
        "min_confidence": frozen.get("min_confidence", 0.9),
        "blend": frozen.get("blend", "union"),
    }
    (args.out / TUNED).write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {args.out / GRAPH} ({len(shipped) / 1e6:.1f} MB, int8 {use_int8}) and {TUNED}")


if __name__ == "__main__":
    main()
