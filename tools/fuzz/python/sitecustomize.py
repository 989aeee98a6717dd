"""Loaded by Python at start-up for the fuzzer's process only (PYTHONPATH, set by fuzz.sh).

CPython 3.11 before 3.11.8 (Debian 12's python3) raises "SystemError: AST constructor recursion
depth mismatch" from ast.parse deep in a recursion (python/cpython#106905). Hypothesis calls
ast.parse only to describe a lambda in a strategy's repr, and schemathesis' coverage phase does that
for some schemas on every run with the same seed, so the fuzzer crashed there, deterministically,
before sending anything. The description is cosmetic: on that error it falls back to Hypothesis' own
"<unknown>" form instead of crashing.
"""

try:
    from hypothesis.internal import lambda_sources as _lambda_sources
except ImportError:  # another interpreter on this path (pip during the install): nothing to patch
    _lambda_sources = None

if _lambda_sources is not None:
    _describe = _lambda_sources._lambda_description

    def _lambda_description(f, *args, **kwargs):
        try:
            return _describe(f, *args, **kwargs)
        except SystemError:
            return "lambda: <unknown>"

    _lambda_sources._lambda_description = _lambda_description
