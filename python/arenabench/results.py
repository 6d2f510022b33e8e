"""Bench CSVs (docs/results-csv.md) as lists of dicts, columns by name,
numbers as numbers and empty fields as None: what pandas.DataFrame takes as
is.  Needs neither numpy nor the C library."""

import csv
import io

INT_COLUMNS = {
    "schema_version", "ops", "buffers", "sum_bytes", "weights_bytes",
    "lower_bound_bytes", "max_live_buffers", "align", "peak_bytes",
    "peak_align1_bytes", "padding_bytes", "arenas", "best_bound_bytes",
    "iterations", "repetitions", "lower_bound_original_bytes",
    "spilled_bytes", "threads",
}
FLOAT_COLUMNS = {"plan_ns", "plan_ns_stddev", "reorder_ns"}


class Rows(list):
    """The rows of a bench, each a dict keyed by the CSV's columns;
    `columns` is the header in order and `messages` the reasons of the
    invalid plans (what `arenabench bench` prints on stderr)."""

    def __init__(self, rows=(), columns=(), messages=()):
        super().__init__(rows)
        self.columns = list(columns)
        self.messages = list(messages)


def _value(column, field, where):
    if field == "":
        return None
    try:
        if column in INT_COLUMNS:
            return int(field)
        if column in FLOAT_COLUMNS:
            return float(field)
    except ValueError:
        raise ValueError(f"{where}: column '{column}': expected a number, "
                         f"got '{field}'") from None
    return field


def parse_results(text, name="<csv>"):
    """Rows of a bench CSV given as text.  A CSV written before the
    `language` column reads as language "c"."""
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise ValueError(f"{name}: empty (expected a bench CSV header starting "
                         "with schema_version)") from None
    if not header or header[0] != "schema_version":
        raise ValueError(f"{name}:1: expected a bench CSV header starting with "
                         "schema_version (docs/results-csv.md)")
    rows = []
    for line, fields in enumerate(reader, start=2):
        if not fields:
            continue
        if len(fields) != len(header):
            raise ValueError(f"{name}:{line}: {len(fields)} fields, expected "
                             f"{len(header)} as in the header")
        rows.append({c: _value(c, f, f"{name}:{line}") for c, f in zip(header, fields)})
    columns = list(header)
    if "language" not in columns:
        columns.append("language")
        for r in rows:
            r["language"] = "c"
    return Rows(rows, columns)


def read_results(path):
    """Rows of a bench CSV file (results/results.csv or any `bench --out`)."""
    with open(path, newline="") as f:
        return parse_results(f.read(), path)
