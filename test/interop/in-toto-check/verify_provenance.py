"""Checks a sealed run folder's seal/provenance.intoto.jsonl with Debian's securesystemslib.

issue 30 item 7: an independent check of the DSSE envelope and the in-toto statement, sharing no
code with the TypeScript verifier. Usage: verify_provenance.py RUN_DIR ISSUER_PUBLIC_KEY_PEM
Prints "ok: ..." and exits 0, or prints "refused: <why>" and exits 1.

- DSSE (github.com/secure-systems-lab/dsse protocol.md): the signature is over
  PAE(payloadType, payload) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body; it is verified
  by securesystemslib's Ed25519 key (SSlibKey.verify_signature) with the issuer's key, given
  outside the folder. The envelope's keyid must be the seal's key_id.
- in-toto Statement v1 (in-toto/attestation spec/v1): _type, subject[].digest.sha256,
  predicateType https://slsa.dev/provenance/v1 with buildDefinition and runDetails.
- The subjects must be every file of the run folder but seal/, each with its SHA-256, and their
  svc-tree/v1 listing must hash to the signed seal's outputs_sha256.
"""

import base64
import hashlib
import json
import os
import sys

from cryptography.hazmat.primitives import serialization
from securesystemslib.exceptions import UnverifiedSignatureError, VerificationError
from securesystemslib.signer import Signature, SSlibKey

PAYLOAD_TYPE = "application/vnd.in-toto+json"


class Refused(Exception):
    pass


def pae(payload_type: bytes, body: bytes) -> bytes:
    return b"DSSEv1 %d %s %d %s" % (len(payload_type), payload_type, len(body), body)


def issuer_key(pem_path: str, keyid: str) -> SSlibKey:
    with open(pem_path, "rb") as handle:
        public = serialization.load_pem_public_key(handle.read())
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    # our key id: "ed25519:" + the first 16 bytes of SHA-256 over the raw key (core keys.ts)
    if keyid != "ed25519:" + hashlib.sha256(raw).hexdigest()[:32]:
        raise Refused(f"the seal's key_id {keyid} is not the given key")
    # securesystemslib key ids are hex: the hex part of ours
    return SSlibKey(keyid.split(":", 1)[1], "ed25519", "ed25519", {"public": raw.hex()})


def folder_files(run_dir: str) -> list:
    files = []
    for top, dirs, names in os.walk(run_dir):
        rel_top = os.path.relpath(top, run_dir)
        if rel_top == "seal" or rel_top.startswith("seal" + os.sep):
            continue
        for name in names:
            rel = os.path.normpath(os.path.join(rel_top, name)).replace(os.sep, "/")
            if rel.startswith("seal/"):
                continue
            with open(os.path.join(top, name), "rb") as handle:
                files.append((rel, hashlib.sha256(handle.read()).hexdigest()))
    return sorted(files, key=lambda file: file[0].encode("utf-8"))


def check(run_dir: str, pem_path: str) -> str:
    with open(os.path.join(run_dir, "seal", "seal.json"), "rb") as handle:
        seal = json.loads(handle.read())
    key = issuer_key(pem_path, seal["key_id"])
    with open(os.path.join(run_dir, "seal", "provenance.intoto.jsonl"), "rb") as handle:
        lines = handle.read().split(b"\n")
    if lines[-1] != b"" or len(lines) < 2:
        raise Refused("not JSON Lines")
    expected = [{"name": path, "digest": {"sha256": digest}} for path, digest in folder_files(run_dir)]
    for number, line in enumerate(lines[:-1], start=1):
        envelope = json.loads(line)
        if envelope.get("payloadType") != PAYLOAD_TYPE:
            raise Refused(f"line {number}: payloadType is not {PAYLOAD_TYPE}")
        body = base64.b64decode(envelope["payload"], validate=True)
        signatures = [s for s in envelope.get("signatures", []) if s.get("keyid") == seal["key_id"]]
        if not signatures:
            raise Refused(f"line {number}: no signature by the seal's key {seal['key_id']}")
        message = pae(envelope["payloadType"].encode("utf-8"), body)
        for signature in signatures:
            sig = Signature(key.keyid, base64.b64decode(signature["sig"], validate=True).hex())
            try:
                key.verify_signature(sig, message)
            except (UnverifiedSignatureError, VerificationError) as error:
                raise Refused(f"line {number}: DSSE signature: {error}") from error
        statement = json.loads(body)
        if statement.get("_type") != "https://in-toto.io/Statement/v1":
            raise Refused(f"line {number}: not an in-toto Statement v1")
        if statement.get("predicateType") != "https://slsa.dev/provenance/v1":
            raise Refused(f"line {number}: the predicate is not SLSA Provenance v1")
        predicate = statement.get("predicate", {})
        if "buildType" not in predicate.get("buildDefinition", {}) or "builder" not in predicate.get("runDetails", {}):
            raise Refused(f"line {number}: the SLSA predicate lacks buildDefinition.buildType or runDetails.builder")
        subjects = statement.get("subject")
        if subjects != expected:
            raise Refused(f"line {number}: the subjects are not the run folder's files and their SHA-256")
        listing = "".join(f"{s['digest']['sha256']}  {s['name']}\n" for s in subjects)
        if hashlib.sha256(listing.encode("utf-8")).hexdigest() != seal["outputs_sha256"]:
            raise Refused(f"line {number}: the subjects do not hash to the sealed outputs_sha256")
        params = predicate["buildDefinition"].get("externalParameters", {})
        if (params.get("project"), params.get("mode")) != (seal["project_id"], seal["mode"]):
            raise Refused(f"line {number}: the external parameters are not the seal's project and mode")
    return f"ok: {len(lines) - 1} envelope(s), {len(expected)} subjects, signed by {seal['key_id']}"


if __name__ == "__main__":
    try:
        print(check(sys.argv[1], sys.argv[2]))
    except (Refused, ValueError, KeyError, TypeError) as error:
        print(f"refused: {error}")
        sys.exit(1)
