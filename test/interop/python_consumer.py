#!/usr/bin/env python3
"""An S2SP consumer written only from the protocol design's wire description,
with nothing but the Python standard library: no SDK, no bearer token.

Usage: python3 python_consumer.py <resource_url>  (abstract rows, a JSON array, on stdin)

It POSTs {"row_ids": [...]} (the _row_id of every abstract row) to the
resource_url, merges the returned body rows into the abstract rows by _row_id,
and prints {"rows": [...]}. If the resource server refuses, it prints
{"status": <HTTP status>, "error": <the response body>} and exits with 1.
"""
import json
import sys
import urllib.error
import urllib.request


def fetch_body(resource_url, row_ids):
    request = urllib.request.Request(
        resource_url,
        data=json.dumps({"row_ids": row_ids}).encode("utf-8"),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)["body"]


def merge(abstract, body):
    body_by_id = {row["_row_id"]: row for row in body}
    return [{**row, **body_by_id.get(row["_row_id"], {})} for row in abstract]


def main():
    resource_url = sys.argv[1]
    abstract = json.load(sys.stdin)
    try:
        body = fetch_body(resource_url, [row["_row_id"] for row in abstract])
    except urllib.error.HTTPError as error:
        text = error.read().decode("utf-8")
        try:
            detail = json.loads(text)
        except ValueError:
            detail = text
        json.dump({"status": error.code, "error": detail}, sys.stdout)
        return 1
    json.dump({"rows": merge(abstract, body)}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
