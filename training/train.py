"""Train the reader's heads over MiniLM token states, with numpy only (no torch needed).

Reads training/data/utterances.jsonl (made by generate.py), runs each utterance through the
same int8 MiniLM and tokenizer the library runs at read time, and fits one hidden layer and
three heads (tag, modality, subject) with Adam. Writes the weights and a manifest holding
the data's sha256 and the held-out metrics into src/threefold/models/reader/data/.

    .venv/bin/python training/train.py [--epochs 8] [--hidden 256] [--seed 7]

On 2 cores: about 3 minutes of encoding and 1 minute an epoch.
"""

import argparse
import hashlib
import json
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from threefold.embed.minilm import MODEL_NAME, MiniLMEmbedder
from threefold.models.reader.heads import WEIGHTS, Heads, encode, spans
from threefold.models.reader.labels import MODALITIES, SUBJECTS, tags

HERE = Path(__file__).parent
DATA = HERE / "data" / "utterances.jsonl"
OUT = HERE.parent / "src" / "threefold" / "models" / "reader" / "data"


def token_labels(
    row: dict, offsets: list[tuple[int, int]]
) -> tuple[list[int], list[int], list[int]]:
    """Each text token's tag, and its modality and subject (-1 outside spans)."""
    index = {name: i for i, name in enumerate(tags())}
    tag, mod, subj = [0] * len(offsets), [-1] * len(offsets), [-1] * len(offsets)
    for start, end, label, modality, subject in row["spans"]:
        inside = [i for i, (a, b) in enumerate(offsets) if a < end and b > start and b > a]
        for n, i in enumerate(inside):
            tag[i] = index[f"{'B' if n == 0 else 'I'}-{label}"]
            mod[i] = MODALITIES.index(modality)
            subj[i] = SUBJECTS.index(subject)
    return tag, mod, subj


def encode_all(rows: list[dict]) -> dict[str, np.ndarray]:
    """States of every text token with its neighbours, as index arrays into one table."""
    embedder = MiniLMEmbedder(threads=2)
    tokenizer = embedder.tokenizer
    encoded = [encode(tokenizer, r["text"], r["previous"]) for r in rows]
    table, own, tag, mod, subj, owner = [], [], [], [], [], []
    started, at = time.time(), 0
    for chunk in range(0, len(rows), 512):
        batch = encoded[chunk : chunk + 512]
        states = embedder.token_states([e.ids for e in batch])
        for n, (e, s) in enumerate(zip(batch, states, strict=True)):
            count = len(e.offsets)
            table.append(s[e.first - 1 : e.first + count + 1].astype(np.float16))
            own += range(at + 1, at + 1 + count)
            t, m, j = token_labels(rows[chunk + n], e.offsets)
            tag += t
            mod += m
            subj += j
            owner += [chunk + n] * count
            at += count + 2
        print(
            f"  encoded {min(chunk + 512, len(rows))}/{len(rows)} ({time.time() - started:.0f}s)",
            flush=True,
        )
    own_a = np.array(own)
    return {
        "table": np.concatenate(table),
        "own": own_a,
        "tag": np.array(tag),
        "mod": np.array(mod),
        "subj": np.array(subj),
        "owner": np.array(owner),
    }


def cached_encoding(rows: list[dict], digest: str, cache: Path | None) -> dict[str, np.ndarray]:
    """The encoded data, kept in `cache` (keyed by the data's hash) for the next run."""
    if cache is not None and cache.is_file():
        with np.load(cache) as kept:
            if str(kept["digest"]) == digest:
                print(f"  encoding from {cache}")
                return {k: kept[k] for k in kept.files if k != "digest"}
    data = encode_all(rows)
    if cache is not None:
        np.savez(cache, digest=np.array(digest), **data)
    return data


def batch_x(table: np.ndarray, own: np.ndarray) -> np.ndarray:
    return np.concatenate([table[own], table[own - 1], table[own + 1]], axis=1).astype(np.float32)


class Trainer:
    def __init__(self, dim: int, hidden: int, rng: np.random.Generator) -> None:
        shapes = {
            "w1": (dim, hidden), "b1": (hidden,),
            "w_tag": (hidden, len(tags())), "b_tag": (len(tags()),),
            "w_mod": (hidden, len(MODALITIES)), "b_mod": (len(MODALITIES),),
            "w_subj": (hidden, len(SUBJECTS)), "b_subj": (len(SUBJECTS),),
        }  # fmt: skip
        self.w = {
            k: (rng.normal(0, np.sqrt(2.0 / s[0]), s) if len(s) == 2 else np.zeros(s)).astype(
                np.float32
            )
            for k, s in shapes.items()
        }
        self.m = {k: np.zeros_like(v) for k, v in self.w.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.w.items()}
        self.steps = 0

    def step(
        self, x: np.ndarray, tag: np.ndarray, mod: np.ndarray, subj: np.ndarray, lr: float
    ) -> float:
        w = self.w
        pre = x @ w["w1"] + w["b1"]
        hidden = np.maximum(pre, 0.0)
        grads: dict[str, np.ndarray] = {}
        d_hidden = np.zeros_like(hidden)
        loss = 0.0
        for head, target in (("tag", tag), ("mod", mod), ("subj", subj)):
            rows = np.nonzero(target >= 0)[0]
            logits = hidden[rows] @ w[f"w_{head}"] + w[f"b_{head}"]
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            loss += (
                float(-np.log(p[np.arange(len(rows)), target[rows]] + 1e-9).mean())
                if len(rows)
                else 0.0
            )
            p[np.arange(len(rows)), target[rows]] -= 1.0
            p /= max(len(x), 1)
            grads[f"w_{head}"] = hidden[rows].T @ p
            grads[f"b_{head}"] = p.sum(axis=0)
            d_hidden[rows] += p @ w[f"w_{head}"].T
        d_pre = d_hidden * (pre > 0)
        grads["w1"] = x.T @ d_pre
        grads["b1"] = d_pre.sum(axis=0)
        self.steps += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9**self.steps)
            v_hat = self.v[k] / (1 - 0.999**self.steps)
            w[k] -= lr * m_hat / (np.sqrt(v_hat) + 1e-8)
        return loss


def evaluate(heads: Heads, data: dict, rows: list[dict], keep: np.ndarray) -> dict[str, float]:
    """Token accuracy of each head, and span precision and recall (label and edges exact)."""
    chosen = np.nonzero(np.isin(data["owner"], keep))[0]
    tag_p, mod_p, subj_p = heads.predict(batch_x(data["table"], data["own"][chosen]))
    tag = data["tag"][chosen]
    inside = data["mod"][chosen] >= 0
    metrics = {
        "token_tag_accuracy": float((tag_p.argmax(1) == tag).mean()),
        "modality_accuracy": float((mod_p.argmax(1) == data["mod"][chosen])[inside].mean()),
        "subject_accuracy": float((subj_p.argmax(1) == data["subj"][chosen])[inside].mean()),
    }
    gold = found = right = 0
    owners = data["owner"][chosen]
    tokenizer = MiniLMEmbedder().tokenizer
    for index in keep:
        row = rows[index]
        mine = np.nonzero(owners == index)[0]
        offsets = encode(tokenizer, row["text"], row["previous"]).offsets
        read = spans(row["text"], offsets, tag_p[mine], mod_p[mine], subj_p[mine])
        truth = {(s, e, label) for s, e, label, *_ in row["spans"]}
        said = {(s.start, s.end, s.label) for s in read}
        gold, found, right = gold + len(truth), found + len(said), right + len(truth & said)
    metrics["span_precision"] = right / max(found, 1)
    metrics["span_recall"] = right / max(gold, 1)
    return {k: round(v, 4) for k, v in metrics.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--cache", type=Path, help="keep the encoded data here between runs")
    args = parser.parse_args()
    raw = DATA.read_bytes()
    rows = [json.loads(line) for line in raw.decode().splitlines()]
    started = time.time()
    data = cached_encoding(rows, hashlib.sha256(raw).hexdigest(), args.cache)
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(rows))
    held = order[: len(rows) // 10]
    train_tokens = np.nonzero(~np.isin(data["owner"], held))[0]
    trainer = Trainer(3 * data["table"].shape[1], args.hidden, rng)
    for epoch in range(args.epochs):
        rng.shuffle(train_tokens)
        lr = args.lr * (0.5 ** (epoch // 2))
        losses = []
        for at in range(0, len(train_tokens), args.batch):
            chosen = train_tokens[at : at + args.batch]
            x = batch_x(data["table"], data["own"][chosen])
            losses.append(
                trainer.step(x, data["tag"][chosen], data["mod"][chosen], data["subj"][chosen], lr)
            )
        print(
            f"epoch {epoch + 1}: loss {np.mean(losses):.4f} ({time.time() - started:.0f}s)",
            flush=True,
        )
    heads = Heads(trainer.w)
    metrics = evaluate(heads, data, rows, held)
    print("held-out:", metrics)
    OUT.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        OUT / "reader_heads.npz", **{k: trainer.w[k].astype(np.float16) for k in WEIGHTS}
    )
    manifest = {
        "weights": "reader_heads.npz",
        "weights_sha256": hashlib.sha256((OUT / "reader_heads.npz").read_bytes()).hexdigest(),
        "encoder": MODEL_NAME,
        "data": str(DATA.relative_to(HERE.parent)),
        "data_sha256": hashlib.sha256(raw).hexdigest(),
        "utterances": len(rows),
        "held_out_utterances": len(held),
        "held_out_metrics": metrics,
        "hidden": args.hidden,
        "epochs": args.epochs,
        "seed": args.seed,
        "tags": list(tags()),
        "trained": datetime.now(UTC).isoformat(timespec="seconds"),
        "train_seconds": round(time.time() - started),
    }
    (OUT / "reader_manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {OUT / 'reader_heads.npz'} and the manifest")


if __name__ == "__main__":
    main()
