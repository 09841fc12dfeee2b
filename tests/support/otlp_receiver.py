#!/usr/bin/env python3
"""Test OTLP/HTTP logs receiver built on the official OpenTelemetry protobuf
definitions (PyPI `opentelemetry-proto`). Start it via otlp-receiver.sh, which
provides a venv with the pinned packages.

    otlp_receiver.py --port 0 --out records.jsonl [--mode MODE] [--verbose]

stdout: first line `PORT <n>` (flushed), nothing else.

Endpoints:
  POST /v1/logs       application/x-protobuf | application/json (charset and
                      other parameters allowed; Content-Encoding: gzip allowed)
                      -> 200 + empty ExportLogsServiceResponse; other content
                      type -> 415; undecodable body -> 400 with error text.
  POST /control/mode  body `ok`, `error:503`, ... -> switches mode (200),
                      resets the flaky counter; bad mode -> 400.
  GET  /control/mode  -> current mode as text.
  GET  /stats         -> {"requests": n, "records": n, "by_status": {...}}
                      (only /v1/logs requests are counted; by_status keys are
                      the status codes as strings, plus "dropped").

Modes: ok | error:<status> | slow:<seconds> | flaky:<n> | drop-after-record.

Each received log record becomes one JSON line in --out (flush + fsync per
request), see record_line().
"""

import argparse
import base64
import binascii
import gzip
import json
import os
import signal
import socket
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf import json_format
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import (
    ExportLogsServiceRequest,
    ExportLogsServiceResponse,
)

CT_PROTOBUF = "application/x-protobuf"
CT_JSON = "application/json"


# --------------------------------------------------------------------------
# modes


def parse_mode(text):
    """Return a normalized (kind, arg) tuple or raise ValueError."""
    text = text.strip()
    if text == "ok":
        return ("ok", None)
    if text == "drop-after-record":
        return ("drop-after-record", None)
    kind, sep, arg = text.partition(":")
    if not sep:
        raise ValueError("unknown mode %r" % text)
    if kind == "error":
        status = int(arg)
        if not 100 <= status <= 599:
            raise ValueError("bad status %r" % arg)
        return ("error", status)
    if kind == "slow":
        seconds = float(arg)
        if seconds < 0:
            raise ValueError("bad seconds %r" % arg)
        return ("slow", seconds)
    if kind == "flaky":
        n = int(arg)
        if n < 0:
            raise ValueError("bad count %r" % arg)
        return ("flaky", n)
    raise ValueError("unknown mode %r" % text)


def mode_text(mode):
    kind, arg = mode
    if arg is None:
        return kind
    if kind == "slow":
        return "slow:%g" % arg
    return "%s:%s" % (kind, arg)


# --------------------------------------------------------------------------
# OTLP -> python values


def any_value(v):
    """AnyValue -> python value. string/bool/int/double as is, bytes as a
    base64 string, array as list, kvlist as dict, unset as None."""
    which = v.WhichOneof("value")
    if which is None:
        return None
    if which == "string_value":
        return v.string_value
    if which == "int_value":
        return v.int_value
    if which == "bool_value":
        return v.bool_value
    if which == "double_value":
        return v.double_value
    if which == "bytes_value":
        return base64.b64encode(v.bytes_value).decode("ascii")
    if which == "array_value":
        return [any_value(x) for x in v.array_value.values]
    if which == "kvlist_value":
        return key_values(v.kvlist_value.values)
    return None


def key_values(kvs):
    return {kv.key: any_value(kv.value) for kv in kvs}


def record_lines(req, content_type, request_no):
    """One JSON line (str, newline-terminated) per log record."""
    ct = "protobuf" if content_type == CT_PROTOBUF else "json"
    out = []
    dumps = json.dumps
    for rl in req.resource_logs:
        resource = key_values(rl.resource.attributes)
        for sl in rl.scope_logs:
            scope = {"name": sl.scope.name, "version": sl.scope.version}
            if len(sl.scope.attributes):
                scope["attributes"] = key_values(sl.scope.attributes)
            for lr in sl.log_records:
                line = {
                    "time_unix_nano": lr.time_unix_nano,
                    "observed_time_unix_nano": lr.observed_time_unix_nano,
                    "severity_number": lr.severity_number,
                    "severity_text": lr.severity_text,
                    "event_name": lr.event_name,
                    "body": any_value(lr.body),
                    "attributes": key_values(lr.attributes),
                    "resource": resource,
                    "scope": scope,
                    "trace_id": lr.trace_id.hex(),
                    "span_id": lr.span_id.hex(),
                    "flags": lr.flags,
                    "content_type": ct,
                    "request": request_no,
                }
                out.append(dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
    return out


# --------------------------------------------------------------------------
# OTLP JSON: traceId / spanId are hex in OTLP JSON (not base64 as in the
# canonical protobuf JSON mapping); convert before json_format.Parse.

_HEX_ID_FIELDS = {"traceId": 16, "spanId": 8, "trace_id": 16, "span_id": 8}


def fix_hex_ids(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in _HEX_ID_FIELDS and isinstance(v, str):
                if v == "":
                    continue
                try:
                    raw = binascii.unhexlify(v)
                except (binascii.Error, ValueError):
                    raise ValueError("%s is not hex: %r" % (k, v))
                if len(raw) != _HEX_ID_FIELDS[k]:
                    raise ValueError(
                        "%s must be %d bytes, got %d" % (k, _HEX_ID_FIELDS[k], len(raw))
                    )
                obj[k] = base64.b64encode(raw).decode("ascii")
            else:
                fix_hex_ids(v)
    elif isinstance(obj, list):
        for v in obj:
            fix_hex_ids(v)


def decode(content_type, body):
    req = ExportLogsServiceRequest()
    if content_type == CT_PROTOBUF:
        req.ParseFromString(body)
    else:
        doc = json.loads(body.decode("utf-8"))
        if not isinstance(doc, dict):
            raise ValueError("JSON body must be an object")
        fix_hex_ids(doc)
        json_format.ParseDict(doc, req)
    return req


# --------------------------------------------------------------------------
# state


class State:
    def __init__(self, out_path, mode):
        self.lock = threading.Lock()
        self.out = open(out_path, "a", encoding="utf-8")
        self.mode = mode
        self.flaky_seen = 0
        self.requests = 0
        self.records = 0
        self.by_status = {}

    def next_request(self):
        """Count a /v1/logs request; return (number, mode, flaky_fail)."""
        with self.lock:
            self.requests += 1
            n = self.requests
            mode = self.mode
            fail = False
            if mode[0] == "flaky":
                self.flaky_seen += 1
                fail = self.flaky_seen <= mode[1]
            return n, mode, fail

    def count_status(self, status):
        with self.lock:
            key = str(status)
            self.by_status[key] = self.by_status.get(key, 0) + 1

    def set_mode(self, mode):
        with self.lock:
            self.mode = mode
            self.flaky_seen = 0

    def write(self, lines):
        with self.lock:
            if lines:
                self.out.write("".join(lines))
                self.out.flush()
                os.fsync(self.out.fileno())
            self.records += len(lines)

    def stats(self):
        with self.lock:
            return {
                "requests": self.requests,
                "records": self.records,
                "by_status": dict(self.by_status),
                "mode": mode_text(self.mode),
            }


# --------------------------------------------------------------------------
# HTTP


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "otlp-test-receiver/1"
    disable_nagle_algorithm = True  # no 40 ms delayed-ACK stalls on keep-alive
    state = None  # set in main
    verbose = False

    def log_message(self, fmt, *args):
        if self.verbose:
            sys.stderr.write("otlp_receiver: " + (fmt % args) + "\n")

    # ---- helpers

    def read_body(self):
        te = self.headers.get("Transfer-Encoding", "")
        if "chunked" in te.lower():
            chunks = []
            while True:
                size_line = self.rfile.readline(65537)
                size = int(size_line.split(b";", 1)[0].strip(), 16)
                if size == 0:
                    # trailers until empty line
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline(65537)
            body = b"".join(chunks)
        else:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length > 0 else b""
        enc = (self.headers.get("Content-Encoding") or "").strip().lower()
        if enc == "gzip":
            body = gzip.decompress(body)
        elif enc == "deflate":
            body = zlib.decompress(body)
        elif enc not in ("", "identity"):
            raise ValueError("unsupported Content-Encoding %r" % enc)
        return body

    def send(self, status, body=b"", content_type="text/plain; charset=utf-8"):
        if isinstance(body, str):
            body = body.encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def send_json(self, status, obj):
        self.send(status, json.dumps(obj, sort_keys=True), "application/json")

    def drop(self):
        """Close the connection without answering."""
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    # ---- routes

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/stats":
            self.send_json(200, self.state.stats())
        elif path == "/control/mode":
            self.send(200, self.state.stats()["mode"] + "\n")
        elif path == "/v1/logs":
            self.send(405, "use POST\n")
        else:
            self.send(404, "not found\n")

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        if path == "/v1/logs":
            self.handle_logs()
        elif path == "/control/mode":
            try:
                body = self.read_body()
            except Exception as e:  # noqa: BLE001
                self.close_connection = True
                self.send(400, "bad body: %s\n" % e)
                return
            try:
                mode = parse_mode(body.decode("utf-8"))
            except (ValueError, UnicodeDecodeError) as e:
                self.send(400, "bad mode: %s\n" % e)
                return
            self.state.set_mode(mode)
            self.send(200, mode_text(mode) + "\n")
        else:
            try:
                self.read_body()
            except Exception:  # noqa: BLE001
                self.close_connection = True
            self.send(404, "not found\n")

    def handle_logs(self):
        st = self.state
        n, mode, flaky_fail = st.next_request()
        raw_ct = self.headers.get("Content-Type") or ""
        ct = raw_ct.split(";", 1)[0].strip().lower()
        try:
            body = self.read_body()
        except Exception as e:  # noqa: BLE001
            self.close_connection = True
            st.count_status(400)
            self.send(400, "cannot read body: %s\n" % e)
            return

        if ct not in (CT_PROTOBUF, CT_JSON):
            st.count_status(415)
            self.send(415, "unsupported Content-Type %r\n" % raw_ct)
            return

        kind, arg = mode
        if kind == "error":
            st.count_status(arg)
            self.send(arg, "fault mode error:%d\n" % arg)
            return
        if kind == "flaky" and flaky_fail:
            st.count_status(503)
            self.send(503, "fault mode flaky\n")
            return

        try:
            req = decode(ct, body)
        except (DecodeError, ValueError, json_format.ParseError, UnicodeDecodeError) as e:
            st.count_status(400)
            self.send(400, "cannot decode %s body: %s\n" % (ct, e))
            return

        if kind == "slow":
            time.sleep(arg)

        st.write(record_lines(req, ct, n))

        if kind == "drop-after-record":
            st.count_status("dropped")
            self.drop()
            return

        st.count_status(200)
        if ct == CT_PROTOBUF:
            self.send(200, ExportLogsServiceResponse().SerializeToString(), CT_PROTOBUF)
        else:
            self.send(200, "{}", CT_JSON)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0 = any free port)")
    ap.add_argument("--out", required=True, help="JSON-lines file the records are appended to")
    ap.add_argument("--mode", default="ok", help="ok | error:<status> | slow:<s> | flaky:<n> | drop-after-record")
    ap.add_argument("--verbose", action="store_true", help="log requests to stderr")
    args = ap.parse_args(argv)

    try:
        mode = parse_mode(args.mode)
    except ValueError as e:
        ap.error("--mode: %s" % e)

    Handler.state = State(args.out, mode)
    Handler.verbose = args.verbose
    server = Server(("127.0.0.1", args.port), Handler)

    stop = threading.Event()

    def on_signal(signum, frame):
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    sys.stdout.write("PORT %d\n" % server.server_address[1])
    sys.stdout.flush()

    t = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    t.start()
    while not stop.wait(0.5):
        if not t.is_alive():
            break
    server.shutdown()
    server.server_close()
    Handler.state.out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
