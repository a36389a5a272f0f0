#!/usr/bin/env python3
"""Snapshots HTML pages on Spark: pages in, Parquet rows with snapshot text, refs and truncation out.

Input is a folder of ``*.html`` files (read as bytes, so each page's encoding is sniffed as a
browser would), or Parquet / JSON-lines rows with an ``html`` column (``str`` or binary).
Every other input column (``path``, an id, a URL…) is kept; the job adds

- ``snapshot``: the snapshot text (the same bytes ``agent-snapshot snapshot`` prints),
- ``refs``: how many refs the text shows,
- ``truncated``: whether a budget cut it,
- ``error``: why a row has no snapshot (null otherwise).

Batches go through ``mapInArrow``: Arrow record batches in, Arrow record batches out, no
row-by-row pickling. Each Spark task runs on one core, so the crate is asked for one thread
per page (``threads="one"``); Spark supplies the parallelism.

Local mode, as written (the wheel installed in the Python that runs it):

    pip install ./bindings/python pyspark pyarrow pandas
    python examples/spark_snapshot.py corpus/ out.parquet

On a cluster, change the master (``--master spark://host:7077``, ``yarn``, ``k8s://…``) and
ship the wheel to the executors (see bindings/python/README.md: a packed virtualenv through
``spark.archives``, or the wheel installed on every node; a ``.so`` cannot ride in
``--py-files``).
"""

import argparse
import sys
import time

# Columns the job adds, with their Arrow types (Spark: string, int, boolean, string).
OUTPUT_COLUMNS = ("snapshot", "refs", "truncated", "error")


def snapshot_batches(batches, html_column, options):
    """The ``mapInArrow`` function: adds the snapshot columns to each Arrow batch.

    Runs on the executors: it imports ``agent_snapshot`` and ``pyarrow`` there.
    """
    import pyarrow as pa

    import agent_snapshot

    for batch in batches:
        texts, refs, truncated, errors = [], [], [], []
        for html in batch.column(html_column).to_pylist():
            if html is None:
                texts.append(None)
                refs.append(None)
                truncated.append(None)
                errors.append("no html")
                continue
            try:
                snap = agent_snapshot.snapshot(html, threads="one", **options)
            except (ValueError, TypeError) as e:
                texts.append(None)
                refs.append(None)
                truncated.append(None)
                errors.append(str(e))
                continue
            texts.append(snap.text)
            refs.append(len(snap.refs))
            truncated.append(snap.stats.truncated)
            errors.append(None)
        kept = [name for name in batch.schema.names if name != html_column]
        arrays = [batch.column(name) for name in kept] + [
            pa.array(texts, pa.string()),
            pa.array(refs, pa.int32()),
            pa.array(truncated, pa.bool_()),
            pa.array(errors, pa.string()),
        ]
        yield pa.RecordBatch.from_arrays(arrays, names=kept + list(OUTPUT_COLUMNS))


def read_pages(spark, paths, input_format, html_column):
    """The input DataFrame and the name of its HTML column."""
    if input_format == "html":
        # binaryFile: path, modificationTime, length, content (the file's bytes).
        df = (
            spark.read.format("binaryFile")
            .option("pathGlobFilter", "*.html")
            .option("recursiveFileLookup", "true")
            .load(paths)
            .select("path", "content")
        )
        return df, "content"
    if input_format == "parquet":
        df = spark.read.parquet(*paths)
    else:
        df = spark.read.json(paths)
    if html_column not in df.columns:
        raise SystemExit(
            f"the input has no column {html_column!r} (it has {', '.join(df.columns)}): "
            "name the HTML column with --html-column"
        )
    return df, html_column


def snapshot_frame(df, html_column, options):
    """``df`` with its HTML column replaced by the snapshot columns."""
    from pyspark.sql.types import BooleanType, IntegerType, StringType, StructField, StructType

    kept = [f for f in df.schema.fields if f.name != html_column]
    schema = StructType(
        kept
        + [
            StructField("snapshot", StringType()),
            StructField("refs", IntegerType()),
            StructField("truncated", BooleanType()),
            StructField("error", StringType()),
        ]
    )
    return df.mapInArrow(lambda batches: snapshot_batches(batches, html_column, options), schema)


def guess_format(paths):
    first = paths[0].rstrip("/")
    if first.endswith(".parquet"):
        return "parquet"
    if first.endswith((".jsonl", ".json", ".ndjson")):
        return "jsonl"
    return "html"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="+", help="folders of .html files, or Parquet / JSONL files")
    parser.add_argument("output", help="where to write the Parquet result")
    parser.add_argument("--master", default="local[2]", help="Spark master URL (default: local[2])")
    parser.add_argument(
        "--format",
        choices=["auto", "html", "parquet", "jsonl"],
        default="auto",
        help="input kind (default: from the first input's name; a folder is html)",
    )
    parser.add_argument("--html-column", default="html", help="the HTML column of Parquet / JSONL rows")
    parser.add_argument("--max-chars-total", type=int, help="snapshot budget (default: the crate's 12000)")
    parser.add_argument("--max-nodes", type=int, help="snapshot budget (default: the crate's 200)")
    parser.add_argument("--partitions", type=int, help="repartition the input into this many tasks")
    args = parser.parse_args(argv)

    from pyspark.sql import SparkSession

    options = {
        name: value
        for name, value in (("max_chars_total", args.max_chars_total), ("max_nodes", args.max_nodes))
        if value is not None
    }
    input_format = guess_format(args.inputs) if args.format == "auto" else args.format
    spark = SparkSession.builder.master(args.master).appName("agent-snapshot").getOrCreate()
    try:
        df, html_column = read_pages(spark, args.inputs, input_format, html_column=args.html_column)
        if args.partitions:
            df = df.repartition(args.partitions)
        start = time.perf_counter()
        snapshot_frame(df, html_column, options).write.mode("overwrite").parquet(args.output)
        seconds = time.perf_counter() - start
        rows = spark.read.parquet(args.output).count()
    finally:
        spark.stop()
    print(f"{rows} pages in {seconds:.2f} s ({rows / seconds:.1f} pages/s) -> {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
