"""Validates rendered manifests offline: Kubernetes kinds against kubernetes-validate's JSON
schemas (strict: unknown fields are errors), custom resources against tools/helm/crd-schemas.

    PYTHONPATH=<kubernetes-validate site> python3 tools/helm/validate.py \
        --kube-version 1.30.0 [--kube-version ...] --crd-schemas DIR FILE...

A kind with no schema is an error, not a warning. Exits 1 listing every problem.
"""

import argparse
import functools
import json
import os
import re
import sys

import jsonschema
import kubernetes_validate.utils as kv
import yaml
from referencing import Registry, Resource


def schema_name(doc):
    # apps/v1 Deployment -> deployment-apps-v1.json; keda.sh/v1alpha1 ScaledObject -> scaledobject-keda-v1alpha1.json
    api = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", doc["apiVersion"])
    return "%s-%s.json" % (doc["kind"].lower(), api)


@functools.lru_cache(maxsize=None)
def kube_validator(name, version):
    """A validator for one kind at one Kubernetes version (strict schemas: unknown fields are errors).
    Built like kubernetes_validate.utils.validate, but once per kind, and reporting every error."""
    schema_version = [v for v in kv.all_versions() if kv.major_minor(v) <= kv.major_minor(version)][-1]
    directory = "kubernetes-json-schema/v%s-local-strict" % schema_version
    try:
        schema = kv.schema_contents("%s/%s" % (directory, name), version)
    except FileNotFoundError:
        return None
    definitions = _definitions(directory, version)
    registry = Resource.from_contents(definitions) @ (Resource.from_contents(schema) @ Registry())
    return jsonschema.validators.Draft202012Validator(schema, registry=registry)


@functools.lru_cache(maxsize=None)
def _definitions(directory, version):
    return kv.schema_contents("%s/_definitions.json" % directory, version)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kube-version", action="append", required=True)
    parser.add_argument("--crd-schemas", required=True)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    crd_validators = {}
    for name in os.listdir(args.crd_schemas):
        with open(os.path.join(args.crd_schemas, name)) as f:
            schema = json.load(f)
        jsonschema.Draft7Validator.check_schema(schema)
        crd_validators[name] = jsonschema.Draft7Validator(schema)

    errors = []
    checked = 0
    for path in args.files:
        with open(path) as f:
            docs = [d for d in yaml.safe_load_all(f) if d]
        for doc in docs:
            where = "%s: %s/%s" % (os.path.basename(path), doc.get("kind"), doc.get("metadata", {}).get("name"))
            crd = crd_validators.get(schema_name(doc))
            if crd is not None:
                checked += 1
                for e in crd.iter_errors(doc):
                    errors.append("%s: %s: %s" % (where, "/".join(map(str, e.path)) or "(root)", e.message))
                continue
            for version in args.kube_version:
                checked += 1
                validator = kube_validator(schema_name(doc), version)
                if validator is None:
                    errors.append("%s: no schema for %s at Kubernetes %s" % (where, doc["apiVersion"], version))
                    continue
                for e in validator.iter_errors(doc):
                    errors.append("%s (k8s %s): %s: %s" % (where, version, ".".join(map(str, e.path)) or "(root)", e.message))

    for line in errors:
        print("ERROR " + line)
    print(
        "validate: %d files, %d checks (Kubernetes %s, %d CRD schemas): %d errors"
        % (len(args.files), checked, ", ".join(args.kube_version), len(crd_validators), len(errors))
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
