"""Encode the training data into the shared int8 MiniLM's lower token states, for finetune.py.

The fine-tuned reader runs the model's upper layers itself (3-6), on the states the
library's own int8 MiniLM computes up to its second layer (--layers); so training starts
from exactly those states (computed once here), not from a float copy of the lower layers.

    .venv/bin/python training/encode_lower.py /tmp/reader_lower.npz

Encodes the generated utterances and the written lines (training/written.py), and writes
every token of every utterance (the answered message's too: the top layers attend
to them), each utterance's length and where its own text starts, and each position's
labels (-1 where nothing is learnt). About 6 minutes on 2 idle cores.
"""

import argparse
import time
from pathlib import Path

import numpy as np

from threefold.embed.minilm import MiniLMEmbedder
from threefold.models.reader.heads import encode

LOWER_LAYERS = 2
"""The default cut: the reader fine-tunes the layers above it (3-6). Four tuned layers over
layer 2 read written text better than two over layer 4 (training/README.md's trials), for
the same number of layers run per turn."""

from train import token_labels  # noqa: E402  (training/ is the script's folder)
from written import training_set  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--layers",
        type=int,
        default=LOWER_LAYERS,
        help="the shared layers (0-5) under the reader; 0: the embeddings alone",
    )
    args = parser.parse_args()
    data = training_set()
    rows = data.rows
    embedder = MiniLMEmbedder(threads=args.threads)
    encoded = [encode(embedder.tokenizer, r["text"], r["previous"]) for r in rows]
    started = time.time()
    states, lengths, firsts, tag, mod, subj = [], [], [], [], [], []
    for chunk in range(0, len(rows), 1024):
        batch = encoded[chunk : chunk + 1024]
        found = embedder.token_states([e.ids for e in batch], layers=args.layers)
        for n, (e, s) in enumerate(zip(batch, found, strict=True)):
            states.append(s.astype(np.float16))
            lengths.append(len(e.ids))
            firsts.append(e.first)
            t, m, j = token_labels(rows[chunk + n], e.offsets)
            count = len(e.offsets)
            for target, own in ((tag, t), (mod, m), (subj, j)):
                column = np.full(len(e.ids), -1, dtype=np.int16)
                column[e.first : e.first + count] = own
                target.append(column)
        print(
            f"  encoded {min(chunk + 1024, len(rows))}/{len(rows)} ({time.time() - started:.0f}s)",
            flush=True,
        )
    np.savez(
        args.out,
        digest=np.array(data.digest),
        roles=data.roles,
        sources=np.array([r.get("file", "") for r in rows]),
        layers=np.array(args.layers),
        states=np.concatenate(states),
        lengths=np.array(lengths),
        firsts=np.array(firsts),
        counts=np.array([len(e.offsets) for e in encoded]),
        tag=np.concatenate(tag),
        mod=np.concatenate(mod),
        subj=np.concatenate(subj),
    )
    print(f"wrote {args.out} ({time.time() - started:.0f}s)")


if __name__ == "__main__":
    main()
