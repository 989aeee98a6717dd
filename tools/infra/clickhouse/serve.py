#!/usr/bin/env python3
"""A ClickHouse HTTP server from the engine the project already installs (npm `chdb`).

usage: serve.py LIBCHDB_SO DATA_DIR HOST HTTP_PORT

chDB's library is ClickHouse's own clickhouse-local as a shared library (`query_stable_v2` takes its
command line). clickhouse-local opens the server's HTTP listener on `SYSTEM START LISTEN HTTP` and
serves it on its own threads for as long as a query runs, so the last query reads a FIFO and blocks
there, idle, until something is written to it (a clean stop) or the process gets SIGTERM. The
listener speaks ClickHouse's HTTP protocol (query parameters, sessions, inserts, the X-ClickHouse-*
headers): what a cluster's services use against a ClickHouse server, with the same engine.
"""
import ctypes
import os
import sys

lib, data, host, port = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3], sys.argv[4]
os.makedirs(data, exist_ok=True)
fifo = os.path.join(data, "hold.fifo")
if not os.path.exists(fifo):
    os.mkfifo(fifo)


class Result(ctypes.Structure):
    _fields_ = [
        ("buf", ctypes.c_char_p),
        ("len", ctypes.c_size_t),
        ("vec", ctypes.c_void_p),
        ("elapsed", ctypes.c_double),
        ("rows_read", ctypes.c_uint64),
        ("bytes_read", ctypes.c_uint64),
        ("error_message", ctypes.c_char_p),
    ]


engine = ctypes.CDLL(lib, mode=ctypes.RTLD_GLOBAL)
engine.query_stable_v2.restype = ctypes.POINTER(Result)
engine.query_stable_v2.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
query = (
    "SYSTEM START LISTEN HTTP; "
    f"SELECT count() FROM file('{fifo}', 'LineAsString') SETTINGS storage_file_read_method='read'"
)
args = [
    "clickhouse",
    f"--path={data}/db",
    f"--http_port={port}",
    f"--listen_host={host}",
    f"--query={query}",
]
argv = (ctypes.c_char_p * len(args))(*[a.encode() for a in args])
result = engine.query_stable_v2(len(args), argv)
if not result or result.contents.error_message:
    message = result.contents.error_message.decode() if result else "no result"
    sys.stderr.write(f"clickhouse: {message}\n")
    sys.exit(1)
