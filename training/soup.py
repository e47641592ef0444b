"""Average the weights of float graphs fine-tuned from the same start (a uniform "soup").

Runs of finetune.py that continue one graph with other seeds (another draw of the generated
utterances, another order of the lines) end near each other in weight space, and their mean
is often a better reader of text unlike the training data than any one of them, at no cost
at run time: the soup is one graph of the same shape.

    .venv/bin/python training/soup.py /tmp/soup.onnx /tmp/run7.onnx /tmp/run8.onnx /tmp/run9.onnx

Each input is finetune.py's float graph with its training record beside it (`.json`); the
soup's record is the first one's, with the runs it averages. Graphs of another shape are
refused, and so are graphs trained on other data, unless `--mixed-data` says that is meant
(session 51's S52 averages G51 with G52, which continued the same start on the same lines
and 1,525 more): list first the run whose data holds the others', since the soup's record,
and so its manifest, names that data; every run's data hash is kept in `soup_data`.
Export the soup with export_top.py as any run.
Runs in the library's venv: onnx and numpy.
"""

import argparse
import json
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper


def weights(graph: onnx.ModelProto) -> dict[str, np.ndarray]:
    return {i.name: numpy_helper.to_array(i) for i in graph.graph.initializer}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="where to write the averaged float graph")
    parser.add_argument("runs", type=Path, nargs="+", help="finetune.py's float graphs")
    parser.add_argument(
        "--mixed-data",
        action="store_true",
        help="average graphs trained on different data (the first run's data is recorded)",
    )
    args = parser.parse_args()
    if len(args.runs) < 2:
        raise SystemExit("a soup needs at least two graphs")
    records = [json.loads(run.with_suffix(".json").read_text()) for run in args.runs]
    if len({r["data_sha256"] for r in records}) > 1 and not args.mixed_data:
        raise SystemExit("the graphs were trained on different data (see --mixed-data)")
    first = onnx.load(str(args.runs[0]))
    total = {name: array.astype(np.float64) for name, array in weights(first).items()}
    for run in args.runs[1:]:
        theirs = weights(onnx.load(str(run)))
        if theirs.keys() != total.keys() or any(theirs[n].shape != total[n].shape for n in total):
            raise SystemExit(f"{run} is not of the same shape as {args.runs[0]}")
        for name in total:
            total[name] += theirs[name]
    for initializer in first.graph.initializer:
        own = numpy_helper.to_array(initializer)
        if not np.issubdtype(own.dtype, np.floating):  # shapes and indices: the same in all
            if not np.array_equal(total[initializer.name], own * len(args.runs)):
                raise SystemExit(f"{initializer.name} differs between the graphs")
            continue
        mean = total[initializer.name] / len(args.runs)
        initializer.CopyFrom(numpy_helper.from_array(mean.astype(own.dtype), initializer.name))
    onnx.save(first, str(args.out))
    record = {
        **records[0],
        "soup_of": [str(run.name) for run in args.runs],
        "soup_data": [r["data_sha256"] for r in records],
    }
    args.out.with_suffix(".json").write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {args.out}: the mean of {len(args.runs)} graphs")


if __name__ == "__main__":
    main()
