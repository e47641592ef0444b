"""CPU per text of MiniLM's variants on Slack lines: the per-run int8 model (one text a run)
against the per-token one at several token budgets a run.

    python benchmarks/embed_cpu.py [--texts 1500] [--rounds 3] [--budgets 1,128,256,512]

The texts are the messages of a synthetic Slack export (benchmarks/slack_synth.py), embedded
in lists of 64 as the import's embedding job does, on one thread. The variants take turns,
round after round, and each keeps its best round: on a shared machine the neighbours then
weigh on all alike. Also prints each variant's mean cosine to the float model. Asserts nothing.
"""

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table
from slack_synth import write_export

import threefold.embed.minilm as minilm
from threefold.embed import MiniLMEmbedder, normalize_rows

JOB_BATCH = 64  # texts per embed() call in the import's embedding job (pipeline.EMBED_BATCH)


def slack_lines(count: int) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        write_export(Path(folder), messages=count + count // 5)
        texts = []
        for day in sorted(Path(folder).glob("*/*.json")):
            try:
                texts += [m["text"] for m in json.loads(day.read_text()) if m.get("text")]
            except ValueError:  # the export's one truncated day file
                continue
    return texts[:count]


def float_vectors(embedder: MiniLMEmbedder, texts: list[str]) -> np.ndarray:
    import onnxruntime

    with minilm.source_model("minilm") as path:
        session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    rows = []
    for text in texts:
        ids = np.array([embedder._tokenizer.encode(text).ids], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": 0 * ids}
        (hidden,) = session.run(["last_hidden_state"], feeds)
        rows.append(hidden.mean(axis=1)[0])
    return normalize_rows(np.array(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--texts", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--budgets", default="1,128,256,512", help="tokens a run, per-token")
    args = parser.parse_args()
    texts = slack_lines(args.texts)
    variants = {"per run, one text a run": (MiniLMEmbedder(model=minilm.PER_RUN_MODEL_NAME), 1)}
    for budget in (int(b) for b in args.budgets.split(",")):
        variants[f"per token, {budget} tokens a run"] = (MiniLMEmbedder(), budget)
    for embedder, _ in variants.values():
        embedder.batch_threads = 1
        embedder.load()
    best = dict.fromkeys(variants, float("inf"))
    vectors = {}
    for _ in range(args.rounds):
        for label, (embedder, budget) in variants.items():
            minilm.BATCH_TOKENS = budget
            started = time.process_time()
            parts = [
                embedder.embed(texts[i : i + JOB_BATCH]) for i in range(0, len(texts), JOB_BATCH)
            ]
            best[label] = min(best[label], time.process_time() - started)
            vectors[label] = np.vstack(parts)
    reference = float_vectors(next(iter(variants.values()))[0], texts[:300])
    table = Table(title=f"MiniLM CPU per Slack line, {len(texts):,} lines, best of {args.rounds}")
    for column in ("variant", "CPU ms / text", "mean cosine to the float model"):
        table.add_column(column, justify="left" if column == "variant" else "right")
    for label, seconds in best.items():
        cosine = float(np.mean(np.sum(vectors[label][:300] * reference, axis=1)))
        table.add_row(label, f"{1000 * seconds / len(texts):.2f}", f"{cosine:.4f}")
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
