#!/usr/bin/env python3
"""Send a sample ExportLogsServiceRequest to the test receiver (for checking
the receiver by hand). Run with the receiver's venv python:

    target/otlp-venv/bin/python tests/support/otlp_send_sample.py \
        --url http://127.0.0.1:PORT/v1/logs [--json] [--records N]

Prints `<status> <seconds> <response body repr>`; exit 0 on 200.
"""

import argparse
import http.client
import json
import sys
import time
import urllib.parse

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue


def build_pb(n):
    req = ExportLogsServiceRequest()
    rl = req.resource_logs.add()
    rl.resource.attributes.add(key="service.name", value=AnyValue(string_value="sample"))
    sl = rl.scope_logs.add()
    sl.scope.name = "sample.scope"
    sl.scope.version = "0.1.0"
    for i in range(n):
        lr = sl.log_records.add()
        lr.time_unix_nano = 1700000000000000000 + i
        lr.observed_time_unix_nano = 1700000000000000001 + i
        lr.severity_number = 9
        lr.severity_text = "INFO"
        lr.event_name = "sample.event"
        lr.body.string_value = "record %d" % i
        lr.attributes.append(KeyValue(key="seq", value=AnyValue(int_value=i)))
        lr.attributes.append(KeyValue(key="ok", value=AnyValue(bool_value=True)))
        lr.attributes.append(KeyValue(key="ratio", value=AnyValue(double_value=0.5)))
        lr.trace_id = bytes(range(16))
        lr.span_id = bytes(range(8))
    return req.SerializeToString()


def build_json(n):
    recs = []
    for i in range(n):
        recs.append({
            "timeUnixNano": str(1700000000000000000 + i),
            "observedTimeUnixNano": str(1700000000000000001 + i),
            "severityNumber": 9,
            "severityText": "INFO",
            "eventName": "sample.event",
            "body": {"stringValue": "record %d" % i},
            "attributes": [
                {"key": "seq", "value": {"intValue": str(i)}},
                {"key": "ok", "value": {"boolValue": True}},
            ],
            "traceId": "000102030405060708090a0b0c0d0e0f",
            "spanId": "0001020304050607",
        })
    doc = {"resourceLogs": [{
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "sample"}}]},
        "scopeLogs": [{"scope": {"name": "sample.scope", "version": "0.1.0"}, "logRecords": recs}],
    }]}
    return json.dumps(doc).encode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--records", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=10)
    a = ap.parse_args()
    u = urllib.parse.urlsplit(a.url)
    body = build_json(a.records) if a.json else build_pb(a.records)
    ct = "application/json" if a.json else "application/x-protobuf"
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=a.timeout)
    t0 = time.monotonic()
    conn.request("POST", u.path or "/v1/logs", body=body, headers={"Content-Type": ct})
    resp = conn.getresponse()
    data = resp.read()
    print(resp.status, "%.3f" % (time.monotonic() - t0), repr(data))
    return 0 if resp.status == 200 else 1


if __name__ == "__main__":
    sys.exit(main())
