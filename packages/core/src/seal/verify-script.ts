import { CLAIM_STRENGTHS } from "../contracts/claim-strength.ts";
import { sha256Hex } from "../digest.ts";
import { RUN_FILES, SEAL_DIR } from "../run-folder/run-files.ts";
import { CLAIM_LINE_LABELS, CLAIM_LINE_Y } from "./claim-line.ts";
import { CLAIM_KEY_SPELLINGS, CLAIM_SUMMARY_FILE, CLAIM_SUMMARY_MAX_BYTES } from "./claim-strength-check.ts";
import { SEAL_FILE_MAX_BYTES } from "./seal-file-caps.ts";
import { SEAL_LAYOUT } from "./seal-layout.ts";
import { VERIFY_MD_FIELDS, verifyInstructionsTemplate } from "./verify-instructions.ts";
import { VERIFY_SCRIPT_PATH } from "./verify-script-path.ts";

export { VERIFY_SCRIPT_PATH };

/** The run folder's per-file list; it only names differing files, it proves nothing. */
export const EXPECTED_OUTPUT_HASHES_FILE = RUN_FILES.expectedHashes;

/** Every verify.sh released before this one: the script accepts them as the folder's copy. */
const EARLIER_RELEASES: readonly string[] = [
  "0b93940aecfc2aacae534cf44c55a7142743861637a5a08acf7306567ae7a39f",
  // issue 30: v3 also checks seal/log-proof.json (the seal's leaf in a checkpoint --key signed).
  // v2 stays released: it refuses a folder with the new file (RUN_FOLDER_UNCOVERED), never passes one.
  "a5c4bfa956d04070c5ab64958f89ea0651f0905a88ff5fd2632b76713ee5f1b6",
  // issue 30 item 6: v4 also checks seal/provenance.intoto.jsonl (DSSE signature by --key, subjects
  // = the sealed outputs). v3 stays released: it refuses a folder with the new file, never passes one.
  "d735239f7747b216365eff1d23e662db102aead42fdb5d6c2ce29c9c92f4dc38",
  // issue 38 items 7 and 8: v5 refuses what svc seal verify refuses: files over their size cap,
  // the folder's verify.sh not released, a rewritten VERIFY.md, non-canonical base64, a \u2014
  // escape in the checkpoint, a second provenance line. v4 stays released: folders sealed with it
  // carry it, and svc seal verify accepts them; run v5 on them. v5 stays released too (issue 37
  // item 3): on a seal that signs a claim_strength it redraws seal.svg without the claim line and
  // refuses it (IMAGE_NOT_CANONICAL), never passes one; run v6 on those.
  "1243117116ad6b44b6c1add3463447fda7364f7d3d18c92eda794a1dd167dd04",
];

/** verify.sh's drawn claim line per signed value, as the renderer draws it (one table). */
const CLAIM_LINE_CASES = CLAIM_STRENGTHS.map(
  (claim) => `      ${claim}) text_line ${CLAIM_LINE_Y} "${CLAIM_LINE_LABELS[claim]}" ;;\n`,
).join("");

/** The size caps as "path bytes" lines, for verify.sh's check_sizes (one table with svc's). */
const SIZE_CAPS = Object.entries(SEAL_FILE_MAX_BYTES)
  .map(([name, cap]) => `${name.includes("/") ? name : `${SEAL_DIR}/${name}`} ${cap}\n`)
  .join("");

/** A text as the body of a quoted here-document: it must end with one newline and not hold the end line. */
function heredocBody(text: string): string {
  if (!text.endsWith("\n") || text.endsWith("\n\n") || text.includes("\nSVC_VERIFY_MD\n"))
    throw new Error("VERIFY.md template cannot be a here-document");
  return text;
}

/**
 * `repro_pack/container/verify.sh` (issue 9 §3, issue 23 items 2 and 3): checks a run folder
 * against its seal with bash and OpenSSL alone. The truth is the signed seal.json; the script
 * also requires seal.svg to be the canonical rendering of it in every line but the ring and QR
 * shapes (their path data must still be bare numbers spelled as the renderer writes them), the
 * folder's public_key.pem to be the key given, and nothing in the folder to be outside the seal.
 * A copy inside the folder it checks proves nothing (a forger edits it too): auditors run the
 * released copy, `svc repro verify-script`, whose hash {@link RELEASED_VERIFY_SCRIPT_SHA256} lists.
 */
export const VERIFY_SCRIPT = `#!/usr/bin/env bash
# svc verify.sh, svc.verify-script/v6: checks a run folder against its seal.
# Run a known-good copy, never the one inside the folder you check (a forger who edits the
# outputs can edit that copy too):  svc repro verify-script > verify.sh
# Usage: bash verify.sh --key <issuer-public-key.pem> [run-dir]   (default run-dir: ../.. of this script)
# The key must come from the issuer (e.g. GET <entitlement-url>/api/seal/keys), never from the
# folder: a folder can carry a key that vouches for a fabricated seal.
# Needs bash, openssl (3.x), base64, sha256sum, cmp, find, grep, sed, sort, tr, xargs, mktemp, od, paste.
# What it checks, in order (any failure prints "verify: FAILED, ..." and exits 1):
#  0. no file of seal/ (nor the folder's verify.sh) is over its size cap or other than a regular
#     file, and the folder's verify.sh is this script byte for byte or an earlier released one;
#  1. the Ed25519 signature in seal/seal.sig over seal/seal.json verifies with --key, and
#     seal/public_key.pem is that same key, in the issuer's PEM form; seal/VERIFY.md is the
#     issuer's text for this seal (unless a field it names is not plain text: then a WARNING);
#  2. seal/seal.svg is, byte for byte, the canonical rendering of seal.json and seal.sig in every
#     line but the ring and QR shapes: header, title, both embedded copies of the payload and
#     signature, frame and every drawn label; the ring lines and the QR line must be bare path
#     data in the renderer's number spelling (no text, no other element). Only \`svc seal verify\`
#     decodes the ring and the QR;
#  3. run_manifest.json and the outputs (svc-tree/v1, seal/ excluded) hash to the signed values;
#  4. nothing in the folder is outside the seal: no scratch entry (.scratch, .scratch-*), no empty folder,
#     nothing in seal/ but VERIFY.md, public_key.pem, seal.json, seal.sig, seal.svg, log-proof.json
#     and provenance.intoto.jsonl;
#  5. seal/log-proof.json, when the issuer keeps a log: this seal's leaf, its RFC 9162 inclusion
#     proof into a C2SP checkpoint signed by --key. Consistency with the issuer's log today needs
#     the issuer: svc seal verify --issuer, svc log watch;
#  6. seal/provenance.intoto.jsonl, when the issuer signed the run's SLSA provenance: each line a
#     DSSE envelope of an in-toto statement signed by --key (the seal's key id), whose subjects are
#     exactly the sealed outputs. Only svc seal verify rebuilds the rest of the statement (project,
#     mode, category, inputs, image, times) from the seal;
#  7. ${CLAIM_SUMMARY_FILE}, when the seal signs a claim_strength (drawn on seal.svg): the file
#     spells the key exactly once in any JSON spelling, as the signed value, a plain string on one
#     line. Only svc seal verify parses the JSON and also requires the key at its top level.
# Exit: 0 the folder is the sealed one; 1 it is not; 2 usage; 4 a pre-seal (nothing signed yet).
set -euo pipefail
key=""
if [ "\${1:-}" = "--key" ]; then key="\${2:-}"; shift 2 || true; fi
here="$(cd "$(dirname "\${BASH_SOURCE[0]}")" && pwd)"
run_dir="$(cd "\${1:-$here/../..}" && pwd)"
seal_dir="$run_dir/seal"
expected="$run_dir/${EXPECTED_OUTPUT_HASHES_FILE}"
case "$here/" in
  "$run_dir"/*) echo "verify: WARNING, this copy of verify.sh sits in the folder it checks and proves nothing: run a known-good copy (svc repro verify-script)" >&2 ;;
esac
fail() { echo "verify: FAILED, $*" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
field() { sed -n "s/.*\\"$1\\": *\\"\\([0-9a-f]\\{64\\}\\)\\".*/\\1/p" "$2" | head -n 1; }
compute_outputs() {
  (cd "$run_dir" && find . -type f ! -path './seal/*' ! -path './.scratch/*' ! -path './.scratch-*' -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum |
    sed 's|  \\./|  |')
}
name_differences() {
  [ -f "$expected" ] || { echo "verify: no per-file list to name the files that differ" >&2; return; }
  sed -n 's/^ *{"path": "\\([^"]*\\)", "sha256": "\\([0-9a-f]\\{64\\}\\)"}.*$/\\2  \\1/p' "$expected" | LC_ALL=C sort -k 2 > "$work/want"
  compute_outputs | grep -v '  ${EXPECTED_OUTPUT_HASHES_FILE}$' | LC_ALL=C sort -k 2 > "$work/got" || true
  if diff -u "$work/want" "$work/got" >&2; then
    echo "verify: every file matches ${EXPECTED_OUTPUT_HASHES_FILE}, so that list was rewritten after sealing too" >&2
  else
    echo "verify: files that differ from ${EXPECTED_OUTPUT_HASHES_FILE} (diff above: - listed, + found)" >&2
  fi
}
uncovered() { # $1 = the find test for the entries seal/ may hold
  (cd "$run_dir" && {
    find . -mindepth 1 -maxdepth 1 \\( -name .scratch -o -name '.scratch-*' \\) -print
    find . -type d -empty ! -path './.scratch' ! -path './.scratch/*' ! -path './.scratch-*' -print
    if [ -d seal ]; then eval "find ./seal -mindepth 1 -maxdepth 1 ! \\\\( $1 \\\\) -print"; fi
  } | sed 's|^\\./||' | LC_ALL=C sort -u)
}
check_coverage() { # $1 = the find test for the entries seal/ may hold; returns 1 when something is uncovered
  local extra
  extra="$(uncovered "$1")"
  [ -z "$extra" ] && return 0
  printf 'verify: FAILED, the run folder holds what the seal does not cover (RUN_FOLDER_UNCOVERED):\\n%s\\n' "$extra" >&2
  return 1
}
compare() { # $1 = file holding the sealed hashes; returns 1 when a hash differs
  local want_outputs want_manifest got_outputs got_manifest
  want_outputs="$(field outputs_sha256 "$1")"; want_manifest="$(field run_manifest_sha256 "$1")"
  if [ -z "$want_outputs" ] || [ -z "$want_manifest" ]; then fail "$1 holds no sealed hashes"; fi
  if [ -n "$(cd "$run_dir" && find . ! -type f ! -type d ! -path './seal/*' ! -path './.scratch/*' ! -path './.scratch-*' -print -quit)" ]; then
    fail "the run folder holds a symbolic link or special file (svc-tree/v1 refuses them)"
  fi
  got_outputs="$(compute_outputs | sha256sum | cut -d ' ' -f 1)"
  got_manifest="$( (sha256sum "$run_dir/run_manifest.json" 2>/dev/null || echo missing) | cut -d ' ' -f 1)"
  local failed=0
  if [ "$got_manifest" != "$want_manifest" ]; then
    echo "verify: FAILED, run_manifest.json hashes to $got_manifest, sealed $want_manifest" >&2; failed=1
  fi
  if [ "$got_outputs" != "$want_outputs" ]; then
    echo "verify: FAILED, the outputs hash to $got_outputs, sealed $want_outputs" >&2; name_differences; failed=1
  fi
  return "$failed"
}
# A string field of seal.json (canonical JSON, RFC 8785: no spaces), only in the drawn fields' safe set.
text_field() { sed -n "s/.*\\"$1\\":\\"\\([A-Za-z0-9._:@+=\\/-]*\\)\\".*/\\1/p" "$seal_dir/seal.json" | head -n 1; }
b64url() { base64 | tr -d '\\n=' | tr '+/' '-_'; }
# One drawn label as the renderer writes it: cut to 47 code points and an ellipsis past 48.
# Labels are ASCII but for the middle dot, carried as ~ (outside every safe set) while cutting.
text_line() { # $1 y, $2 content, $3 font size, $4 weight
  local content="$2"
  if [ "\${#content}" -gt 48 ]; then content="\${content:0:47}"$'\\xe2\\x80\\xa6'; fi
  content="\${content//\\~/$'\\xc2\\xb7'}"
  printf '<text x="240" y="%s" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="%s" font-weight="%s" fill="#1b2a4a">%s</text>\\n' \\
    "$1" "\${3:-11}" "\${4:-normal}" "$content"
}
url_host() { # the host (and a non-default port) of a URL, as WHATWG URL.host spells it
  local rest="\${1#*://}" scheme="\${1%%://*}"
  rest="\${rest%%[/?#]*}"; rest="\${rest##*@}"
  rest="$(printf '%s' "$rest" | LC_ALL=C tr '[:upper:]' '[:lower:]')"
  case "$scheme:$rest" in https:*:443 | http:*:80) rest="\${rest%:*}" ;; esac
  printf '%s' "$rest"
}
check_svg() {
  local svg="$seal_dir/seal.svg" run_id project_id mode issued_at seal_id key_id version attestation claim verify_url label token ring_lines
  [ -f "$svg" ] || fail "seal/seal.svg is missing"
  run_id="$(text_field run_id)"; project_id="$(text_field project_id)"; issued_at="$(text_field issued_at)"
  seal_id="$(text_field seal_id)"; key_id="$(text_field key_id)"; mode="$(text_field mode)"
  version="$(text_field seal_version)"; attestation="$(text_field attestation)"; claim="$(text_field claim_strength)"
  case "$version" in svc.seal/v1 | svc.seal/v2) ;; *) fail "seal/seal.json has no seal_version this script knows (svc.seal/v1, svc.seal/v2)" ;; esac
  if [ -z "$run_id" ] || [ -z "$project_id" ] || [ -z "$issued_at" ] || [ -z "$seal_id" ] || [ -z "$key_id" ] || [ -z "$mode" ]; then
    fail "seal/seal.json lacks a drawn field (run_id, project_id, mode, issued_at, seal_id, key_id)"
  fi
  if grep -q '"verify_url":null' "$seal_dir/seal.json"; then
    label="verify: svc seal verify seal.svg"
  else
    verify_url="$(sed -n 's/.*"verify_url":"\\([^"\\\\]*\\)".*/\\1/p' "$seal_dir/seal.json")"
    [ -n "$verify_url" ] || fail "seal/seal.json has no readable verify_url"
    label="verify at $(url_host "$verify_url")"
  fi
  b64url < "$seal_dir/seal.json" > "$work/payload"
  b64url < "$work/sig" > "$work/sig64"
  token="$version;key=$key_id;payload=$(cat "$work/payload");sig=$(cat "$work/sig64")"
  # Lines 14.. up to </g> are the ring; the line after the white square is the QR symbol.
  sed -n '14,$p' "$svg" | sed '/^<\\/g>$/,$d' > "$work/ring"
  ring_lines="$(($(wc -l < "$work/ring")))"
  [ "$ring_lines" = ${SEAL_LAYOUT.ring.slots} ] || fail "seal/seal.svg has $ring_lines ring lines, the canonical seal has ${SEAL_LAYOUT.ring.slots}"
  # Numbers as the renderer spells them (no trailing dot, no padding, no exponent).
  local number='-?[0-9]+(\\.[0-9]+)?'
  if grep -Evq "^<path d=\\"M$number $number(A$number $number $number $number $number $number $number|L$number $number)*Z\\"/>\\$" "$work/ring"; then
    fail "seal/seal.svg: a ring line is not bare path data (IMAGE_NOT_CANONICAL)"
  fi
  sed -n "$((14 + ring_lines + 2))p" "$svg" > "$work/qr"
  if ! grep -Eq "^<path fill=\\"#000\\" d=\\"(M$number $number(h$number|v$number)*Z)+\\"/>\\$" "$work/qr"; then
    fail "seal/seal.svg: the QR line is not bare path data (IMAGE_NOT_CANONICAL)"
  fi
  {
    printf '%s\\n' '<?xml version="1.0" encoding="UTF-8"?>' \\
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:svcseal="urn:svc:seal:v1" width="480" height="480" viewBox="0 0 480 480" role="img">' \\
      "<title>Audit seal for run $run_id</title>" \\
      "<desc>$token</desc>" \\
      '<metadata>' \\
      "<svcseal:seal version=\\"$version\\" key_id=\\"$key_id\\" alg=\\"Ed25519\\">" \\
      "<svcseal:payload encoding=\\"base64url\\">$(cat "$work/payload")</svcseal:payload>" \\
      "<svcseal:signature encoding=\\"base64url\\">$(cat "$work/sig64")</svcseal:signature>" \\
      '</svcseal:seal>' \\
      '</metadata>' \\
      '<circle cx="240" cy="240" r="236" fill="#fbf8ef" stroke="#1b2a4a" stroke-width="3"/>' \\
      '<circle cx="240" cy="240" r="188" fill="none" stroke="#1b2a4a" stroke-width="1"/>' \\
      '<g fill="#1b2a4a">'
    cat "$work/ring"
    printf '%s\\n' '</g>' '<rect x="160" y="170" width="160" height="160" fill="#fff"/>'
    cat "$work/qr"
    text_line 104 "SVC COMPUTATIONAL AUDIT SEAL" 13 bold
    text_line 126 "run $run_id"
    text_line 143 "project $project_id ~ $mode"
    text_line 160 "issued $issued_at"
    text_line 350 "seal \${seal_id:0:17}"$'\\xe2\\x80\\xa6'
    text_line 367 "$label"
    # a v2 seal says what it attests (issue 23 item 5); a v1 seal is drawn as it was issued
    if [ "$attestation" = job_reported ]; then text_line 384 "attests: hashes the job reported"; fi
    # the signed claim strength (issue 37 item 3); a seal without one is drawn as before
    case "$claim" in
${CLAIM_LINE_CASES}      "") ;;
      *) fail "seal/seal.json has a claim_strength this script does not know (PAYLOAD_INVALID)" ;;
    esac
    printf '%s\\n' '</svg>'
  } > "$work/seal.svg"
  cmp -s "$work/seal.svg" "$svg" ||
    fail "seal/seal.svg is not the canonical rendering of seal/seal.json and seal/seal.sig (IMAGE_NOT_CANONICAL or SEAL_FILES_DISAGREE); first difference: $(cmp "$work/seal.svg" "$svg" 2>&1 | head -n 1)"
}
hex_of() { od -An -v -tx1 | tr -d ' \\n'; }
bin_of() { printf '%b' "$(printf '%s' "$1" | sed 's/../\\\\x&/g')"; }
node_hash() { { printf '\\001'; bin_of "$1$2"; } | sha256sum | cut -c 1-64; }
check_log_proof() { # issue 30: seal/log-proof.json, when present, proves this seal's leaf in a checkpoint --key signed
  local file="$seal_dir/log-proof.json"
  [ -f "$file" ] || return 0
  local entry index note origin size root sigline name sig fn sn r p id rest issuer want
  entry="{\\"event\\":\\"issued\\",\\"key_id\\":\\"$(text_field key_id)\\",\\"payload_sha256\\":\\"$(sha256sum < "$seal_dir/seal.json" | cut -c 1-64)\\",\\"run_id\\":\\"$(text_field run_id)\\",\\"seal_id\\":\\"$(text_field seal_id)\\",\\"time\\":\\"$(text_field issued_at)\\"}"
  index="$(sed -n 's/^  "leaf_index": \\(0\\|[1-9][0-9]\\{0,14\\}\\),$/\\1/p' "$file")"
  note="$(sed -n 's/^  "checkpoint": "\\(.*\\)"$/\\1/p' "$file")"
  grep -Ex '    "[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=",?' "$file" | sed 's/^    "\\(.*\\)",\\{0,1\\}$/\\1/' > "$work/path" || true
  # the file must be exactly what the runner writes for these parts (two-space JSON, one newline)
  {
    printf '{\\n  "version": "svc.log-proof/v1",\\n  "leaf_index": %s,\\n  "entry": "%s",\\n' "$index" "\${entry//\\"/\\\\\\"}"
    if [ -s "$work/path" ]; then
      printf '  "inclusion_proof": [\\n'
      sed 's/.*/    "&",/; $ s/,$//' "$work/path"
      printf '  ],\\n'
    else printf '  "inclusion_proof": [],\\n'; fi
    printf '  "checkpoint": "%s"\\n}\\n' "$note"
  } > "$work/log-proof.json"
  if ! { [ -n "$index" ] && cmp -s "$work/log-proof.json" "$file"; }; then
    fail "seal/log-proof.json is not this seal's issued leaf, written as the runner writes it (LOG_ENTRY_MISMATCH or LOG_PROOF_INVALID)"
  fi
  # the note as JSON holds only the \\n escape: \\u2014 is a second byte version of the file (issue 38 item 7)
  rest="\${note//\\\\n/}"
  case "$rest" in *\\\\*) fail "seal/log-proof.json: the checkpoint is not written as the runner writes it (LOG_PROOF_INVALID)" ;; esac
  # the C2SP checkpoint: origin, size, root, a blank line, one Ed25519 signature line by --key
  origin="$(printf '%b' "$note" | sed -n 1p)"; size="$(printf '%b' "$note" | sed -n 2p)"; root="$(printf '%b' "$note" | sed -n 3p)"
  sigline="$(printf '%b' "$note" | sed -n 5p)"
  if ! { [ "$(printf '%b' "$note" | sed -n 4p)" = "" ] && [ "$(printf '%b' "$note" | wc -l)" = 5 ]; }; then
    fail "seal/log-proof.json: the checkpoint is not an origin, size, root and one signature line (LOG_PROOF_INVALID)"
  fi
  if ! { printf '%s\\n' "$size" | grep -Eqx '0|[1-9][0-9]{0,15}' && printf '%s\\n' "$root" | grep -Eqx '[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]='; }; then
    fail "seal/log-proof.json: the checkpoint's size or root is malformed (LOG_PROOF_INVALID)"
  fi
  name="\${sigline#$'\\xe2\\x80\\x94' }"; sig="\${name##* }"; name="\${name% *}"
  if ! { [ "$sigline" = $'\\xe2\\x80\\x94'" $name $sig" ] && [ "$name" = "$origin" ]; }; then
    fail "seal/log-proof.json: the checkpoint's signature line is not by its origin (LOG_PROOF_INVALID)"
  fi
  # issue 38 item 2: the seal's issuer's own log (core logOriginOf), never another origin
  issuer="$(json_string issuer)"
  if [ -n "$issuer" ] && LC_ALL=C grep -q '^[ -~]*$' <<< "$issuer"; then
    want="$(printf '%s' "$issuer" | LC_ALL=C sed -E 's#^[A-Za-z][A-Za-z0-9+.-]*://##; s#/+$##' | LC_ALL=C tr ' +' '--')"
    [ "$origin" = "\${want:-svc}/seal-log" ] ||
      fail "seal/log-proof.json: the checkpoint is of the log $origin, not of the seal's issuer's log \${want:-svc}/seal-log (LOG_PROOF_INVALID)"
  else
    echo "verify: WARNING, the checkpoint's origin is not checked: seal.json's issuer is not plain ASCII text; svc seal verify checks it" >&2
  fi
  printf '%s\\n%s\\n%s\\n' "$origin" "$size" "$root" > "$work/checkpoint"
  if ! { printf '%s\\n' "$sig" | grep -Eqx '[A-Za-z0-9+/]{90}[AEIMQUYcgkosw048]=' && printf '%s' "$sig" | base64 -d > "$work/note-sig" 2>/dev/null && [ "$(wc -c < "$work/note-sig")" = 68 ]; }; then
    fail "seal/log-proof.json: the checkpoint signature is not a 4-byte key id and an Ed25519 signature (LOG_PROOF_INVALID)"
  fi
  openssl pkey -pubin -in "$key" -outform DER 2>/dev/null | tail -c 32 > "$work/raw-key"
  id="$({ printf '%s\\n\\001' "$origin"; cat "$work/raw-key"; } | sha256sum | cut -c 1-8)"
  [ "$(head -c 4 "$work/note-sig" | hex_of)" = "$id" ] ||
    fail "seal/log-proof.json: the checkpoint is not signed by $key under its origin (LOG_PROOF_INVALID)"
  tail -c 64 "$work/note-sig" > "$work/note-sig64"
  openssl pkeyutl -verify -pubin -inkey "$key" -rawin -in "$work/checkpoint" -sigfile "$work/note-sig64" > /dev/null 2>&1 ||
    fail "seal/log-proof.json: the checkpoint signature does not verify with $key (LOG_PROOF_INVALID)"
  # RFC 9162 §2.1.3.2: from the leaf hash SHA-256(0x00 ‖ entry) up the path to the root
  [ "$index" -lt "$size" ] || fail "seal/log-proof.json: leaf $index is outside the tree of $size leaves (LOG_PROOF_INVALID)"
  fn="$index"; sn=$((size - 1))
  r="$({ printf '\\000'; printf '%s' "$entry"; } | sha256sum | cut -c 1-64)"
  while read -r p; do
    [ "$sn" -gt 0 ] || fail "seal/log-proof.json: the inclusion proof is longer than the tree is deep (LOG_PROOF_INVALID)"
    p="$(printf '%s' "$p" | base64 -d | hex_of)"
    if [ $((fn % 2)) = 1 ] || [ "$fn" = "$sn" ]; then
      r="$(node_hash "$p" "$r")"
      while [ $((fn % 2)) = 0 ] && [ "$fn" != 0 ]; do fn=$((fn / 2)); sn=$((sn / 2)); done
    else r="$(node_hash "$r" "$p")"; fi
    fn=$((fn / 2)); sn=$((sn / 2))
  done < "$work/path"
  if ! { [ "$sn" = 0 ] && [ "$r" = "$(printf '%s' "$root" | base64 -d | hex_of)" ]; }; then
    fail "seal/log-proof.json: the inclusion proof does not lead from this seal's leaf to the checkpoint's root (LOG_PROOF_INVALID)"
  fi
}
check_provenance() { # issue 30 item 6: seal/provenance.intoto.jsonl, when present, is signed by --key over the sealed outputs
  local file="$seal_dir/provenance.intoto.jsonl" subjects prefix suffix
  [ -f "$file" ] || return 0
  if ! { [ -s "$file" ] && [ "$(tail -c 1 "$file" | od -An -c | tr -d ' ')" = '\\n' ]; }; then
    fail "seal/provenance.intoto.jsonl is not JSON Lines (PROVENANCE_INVALID)"
  fi
  [ "$(($(wc -l < "$file")))" = 1 ] || fail "seal/provenance.intoto.jsonl is not one line: the issuer writes one DSSE envelope (PROVENANCE_INVALID)"
  # the subjects the issuer signs: every sealed output, in svc-tree/v1 order, as canonical JSON
  subjects="$(compute_outputs | sed 's/"/\\\\"/g; s/^\\([0-9a-f]\\{64\\}\\)  \\(.*\\)$/{"digest":{"sha256":"\\1"},"name":"\\2"}/' | paste -sd , -)"
  # one line: read by grep, sed and base64 from the file, never into a shell variable (issue 38
  # item 8: an 11 MiB line read and matched by bash cost seconds and hundreds of MB per copy)
  LC_ALL=C grep -Eqx '\\{"payload":"([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=|[A-Za-z0-9+/][AQgw]==)?","payloadType":"application/vnd\\.in-toto\\+json","signatures":\\[\\{"keyid":"ed25519:[0-9a-f]{32}","sig":"[A-Za-z0-9+/]{85}[AQgw]=="\\}\\]\\}' "$file" ||
    fail "seal/provenance.intoto.jsonl is not one DSSE envelope of an in-toto statement as the issuer writes it (PROVENANCE_INVALID)"
  [ "$(LC_ALL=C sed 's/.*"keyid":"\\([^"]*\\)".*/\\1/' "$file")" = "$(text_field key_id)" ] ||
    fail "seal/provenance.intoto.jsonl is not signed by the seal's key (PROVENANCE_INVALID)"
  LC_ALL=C sed 's/^{"payload":"\\([^"]*\\)".*/\\1/' "$file" | base64 -d > "$work/statement" 2>/dev/null ||
    fail "seal/provenance.intoto.jsonl: the payload is not base64 (PROVENANCE_INVALID)"
  LC_ALL=C sed 's/.*"sig":"\\([^"]*\\)".*/\\1/' "$file" | base64 -d > "$work/statement-sig"
  # DSSE v1 PAE: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body
  { printf 'DSSEv1 28 application/vnd.in-toto+json %s ' "$(($(wc -c < "$work/statement")))"; cat "$work/statement"; } > "$work/pae"
  openssl pkeyutl -verify -pubin -inkey "$key" -rawin -in "$work/pae" -sigfile "$work/statement-sig" > /dev/null 2>&1 ||
    fail "seal/provenance.intoto.jsonl: the DSSE signature does not verify with $key (PROVENANCE_INVALID)"
  # canonical JSON, keys sorted: _type first, then predicate, predicateType and subject last;
  # compared as bytes at both ends of the file
  prefix='{"_type":"https://in-toto.io/Statement/v1","predicate":{'
  suffix='},"predicateType":"https://slsa.dev/provenance/v1","subject":['"$subjects"']}'
  printf '%s' "$prefix" > "$work/statement-head"; printf '%s' "$suffix" > "$work/statement-tail"
  if ! { [ "$(($(wc -c < "$work/statement")))" -ge "$(($(wc -c < "$work/statement-head") + $(wc -c < "$work/statement-tail")))" ] &&
    head -c "$(($(wc -c < "$work/statement-head")))" "$work/statement" | cmp -s - "$work/statement-head" &&
    tail -c "$(($(wc -c < "$work/statement-tail")))" "$work/statement" | cmp -s - "$work/statement-tail"; }; then
    fail "seal/provenance.intoto.jsonl: the statement's subjects are not the sealed outputs (PROVENANCE_INVALID)"
  fi
}
check_claim() { # issue 37 item 3: ${CLAIM_SUMMARY_FILE} states the signed claim strength, once
  local claim file="$run_dir/${CLAIM_SUMMARY_FILE}" spelled stated
  claim="$(text_field claim_strength)"
  [ -n "$claim" ] || return 0
  if [ -L "$file" ] || [ ! -f "$file" ]; then
    fail "${CLAIM_SUMMARY_FILE} is missing: it cannot state the signed claim strength $claim (CLAIM_STRENGTH_MISMATCH)"
  fi
  [ "$(($(wc -c < "$file")))" -le ${CLAIM_SUMMARY_MAX_BYTES} ] ||
    fail "${CLAIM_SUMMARY_FILE} is over ${CLAIM_SUMMARY_MAX_BYTES} bytes, not read (CLAIM_STRENGTH_MISMATCH)"
  # every JSON spelling of the key (core CLAIM_KEY_SPELLINGS), so an escaped duplicate cannot hide
  spelled="$( { LC_ALL=C grep -aoE '${CLAIM_KEY_SPELLINGS}' "$file" || true; } | wc -l)"
  spelled="$((spelled))"
  if [ "$spelled" != 1 ]; then
    [ "$spelled" = 0 ] && spelled=nowhere || spelled="$spelled times"
    fail "${CLAIM_SUMMARY_FILE} states claim_strength $spelled, the seal says $claim once (CLAIM_STRENGTH_MISMATCH)"
  fi
  if ! LC_ALL=C grep -aqE '"claim_strength"[[:blank:]]*:[[:blank:]]*"[^"\\\\]*"' "$file"; then
    fail "${CLAIM_SUMMARY_FILE} does not state claim_strength as a plain string on one line (CLAIM_STRENGTH_MISMATCH)"
  fi
  stated="$(LC_ALL=C sed -n 's/.*"claim_strength"[[:blank:]]*:[[:blank:]]*"\\([^"\\\\]*\\)".*/\\1/p' "$file" | head -n 1)"
  [ "$stated" = "$claim" ] ||
    fail "${CLAIM_SUMMARY_FILE} says claim_strength \\"$stated\\", the seal says $claim (CLAIM_STRENGTH_MISMATCH)"
}
check_sizes() { # issue 38 item 8: every file is sized before it is read; one over its cap is not read
  local path cap
  while read -r path cap; do
    if [ -L "$run_dir/$path" ] || { [ -e "$run_dir/$path" ] && [ ! -f "$run_dir/$path" ]; }; then
      case "$path" in
        seal/*) fail "$path is not a regular file (RUN_FOLDER_UNCOVERED)" ;;
        *) fail "$path is not a regular file (VERIFY_SCRIPT_NOT_RELEASED)" ;;
      esac
    fi
    if [ -f "$run_dir/$path" ] && [ "$(($(wc -c < "$run_dir/$path")))" -gt "$cap" ]; then
      case "$path" in
        */seal.svg | */preseal.svg) fail "$path is over $cap bytes, not read (SVG_TOO_COMPLEX)" ;;
        *) fail "$path is over its cap of $cap bytes, not read (SEAL_FILE_TOO_LARGE)" ;;
      esac
    fi
  done <<'SVC_CAPS'
${SIZE_CAPS}SVC_CAPS
}
check_folder_script() { # issue 38 item 7: the folder's verify.sh is a released one, as svc seal verify requires
  local copy="$run_dir/${VERIFY_SCRIPT_PATH}" self
  self="$here/$(basename "\${BASH_SOURCE[0]}")"
  [ -f "$copy" ] || fail "${VERIFY_SCRIPT_PATH} is missing (VERIFY_SCRIPT_NOT_RELEASED)"
  if [ -f "$self" ] && cmp -s "$self" "$copy"; then return 0; fi
  case "$(sha256sum < "$copy" | cut -c 1-64)" in
    ${EARLIER_RELEASES.join(" | ")}) return 0 ;;
  esac
  fail "${VERIFY_SCRIPT_PATH} is neither this script nor an earlier released one (VERIFY_SCRIPT_NOT_RELEASED); run this script from a file"
}
json_string() { # field $1 of seal.json when it is a string without JSON escapes; empty otherwise
  sed -n "s/.*\\"$1\\":\\"\\([^\\"\\\\\\\\]*\\)\\".*/\\1/p" "$seal_dir/seal.json" | head -n 1
}
subst() { # $1 text, $2 marker, $3 value: sets subst_out to the text with every marker replaced
  local text="$1"
  subst_out=""
  while [[ "$text" == *"$2"* ]]; do subst_out+="\${text%%"$2"*}$3"; text="\${text#*"$2"}"; done
  subst_out+="$text"
}
api_url() { # new URL("/api/seal/verify", $1).href (WHATWG) for a plain http(s) URL; empty when not plain
  local re='^([Hh][Tt][Tt][Pp][Ss]?)://([A-Za-z0-9.-]+)(:([0-9]{0,5}))?([/?#].*)?$' scheme host port last
  [[ "$1" =~ $re ]] || return 0
  scheme="$(printf '%s' "\${BASH_REMATCH[1]}" | LC_ALL=C tr '[:upper:]' '[:lower:]')"
  host="$(printf '%s' "\${BASH_REMATCH[2]}" | LC_ALL=C tr '[:upper:]' '[:lower:]')"; port="\${BASH_REMATCH[4]}"
  [[ "$host" =~ ^[a-z0-9-]+(\\.[a-z0-9-]+)*$ ]] || return 0
  case ".$host" in *.xn--*) return 0 ;; esac
  last="\${host##*.}"
  # a host ending in a number is an IPv4 address to WHATWG: only the dotted quad it keeps as is
  if [[ "$last" =~ ^(0[x]?[0-9a-f]*|[0-9]+)$ ]]; then
    local octet='(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
    [[ "$host" =~ ^$octet\\.$octet\\.$octet\\.$octet$ ]] || return 0
  fi
  if [ -n "$port" ]; then
    [ "$((10#$port))" -le 65535 ] || return 0
    port="$((10#$port))"
  fi
  case "$scheme:$port" in https:443 | http:80 | *:) port="" ;; esac
  printf '%s://%s%s/api/seal/verify' "$scheme" "$host" "\${port:+:$port}"
}
verify_md_online() {
  cat <<'SVC_VERIFY_MD'
${heredocBody(verifyInstructionsTemplate(true))}SVC_VERIFY_MD
}
verify_md_offline() {
  cat <<'SVC_VERIFY_MD'
${heredocBody(verifyInstructionsTemplate(false))}SVC_VERIFY_MD
}
check_verify_md() { # issue 38 item 7: seal/VERIFY.md is the issuer's text for this seal, byte for byte
  local file="$seal_dir/VERIFY.md" text field value api=""
  [ -f "$file" ] || fail "seal/VERIFY.md is missing (SEAL_FILES_DISAGREE)"
  if grep -q '"verify_url":null' "$seal_dir/seal.json"; then verify_md_offline > "$work/md"; else
    verify_md_online > "$work/md"
    api="$(api_url "$(json_string verify_url)")"
    if [ -z "$api" ]; then
      echo "verify: WARNING, seal/VERIFY.md not checked: verify_url is not a plain http(s) URL this script can resolve; svc seal verify checks it" >&2
      return 0
    fi
  fi
  text="$(cat "$work/md"; printf x)"; text="\${text%x}"
  for field in ${VERIFY_MD_FIELDS.join(" ")}; do
    [ "$field" = verify_url ] && [ -z "$api" ] && continue
    value="$(json_string "$field")"
    if [ -z "$value" ]; then
      echo "verify: WARNING, seal/VERIFY.md not checked: seal.json's $field holds JSON escapes; svc seal verify checks it" >&2
      return 0
    fi
    subst "$text" "@@$field@@" "$value"; text="$subst_out"
  done
  subst "$text" "@@api_url@@" "$api"
  printf '%s' "$subst_out" > "$work/VERIFY.md"
  cmp -s "$work/VERIFY.md" "$file" || fail "seal/VERIFY.md is not the issuer's text for this seal (SEAL_FILES_DISAGREE)"
}
check_sizes
check_folder_script
if [ ! -f "$seal_dir/seal.json" ] && [ -f "$seal_dir/preseal.json" ]; then
  status=0
  compare "$seal_dir/preseal.json" || status=1
  check_coverage "-type f \\\\( -name preseal.json -o -name preseal.svg \\\\) -o -type d -name pending" || status=1
  [ "$status" = 0 ] || exit 1
  echo "verify: PRESEAL_UNSIGNED, the outputs match an unsigned pre-seal: a claim anyone can write, never seen by the issuer; run svc-runner seal to get the seal"
  exit 4
fi
[ -n "$key" ] || {
  echo "verify: pass --key <issuer public key.pem> from the issuer (GET /api/seal/keys); seal/public_key.pem in this folder cannot vouch for itself" >&2
  exit 2
}
[ -f "$key" ] || { echo "verify: $key not found" >&2; exit 2; }
command -v openssl > /dev/null || { echo "verify: needs openssl 3 (Ed25519 with pkeyutl -rawin) on PATH" >&2; exit 2; }
if [ ! -f "$seal_dir/seal.json" ] || [ ! -f "$seal_dir/seal.sig" ]; then fail "seal/seal.json or seal/seal.sig missing"; fi
# Strict base64: one line of the 64-byte signature's 88 characters, unused pad bits zero, as the issuer writes it.
if ! grep -Eqx '[A-Za-z0-9+/]{85}[AQgw]==' "$seal_dir/seal.sig" || [ "$(($(wc -l < "$seal_dir/seal.sig")))" != 1 ]; then
  fail "seal/seal.sig is not one line of canonical base64 (SEAL_SIG_MALFORMED)"
fi
base64 -d "$seal_dir/seal.sig" > "$work/sig" 2>/dev/null || fail "seal/seal.sig is not base64"
if ! openssl pkeyutl -verify -pubin -inkey "$key" -rawin -in "$seal_dir/seal.json" -sigfile "$work/sig" > /dev/null 2>&1; then
  fail "the signature of seal/seal.json does not verify with $key (SIGNATURE_INVALID)"
fi
openssl pkey -pubin -in "$key" -pubout > "$work/key.pem" 2>/dev/null || fail "$key is not a public key"
cmp -s "$work/key.pem" "$seal_dir/public_key.pem" ||
  fail "seal/public_key.pem is not the key that signed (SEAL_FILES_DISAGREE)"
check_verify_md
check_svg
check_log_proof
check_provenance
status=0
compare "$seal_dir/seal.json" || status=1
check_coverage "-type f \\\\( -name VERIFY.md -o -name public_key.pem -o -name seal.json -o -name seal.sig -o -name seal.svg -o -name log-proof.json -o -name provenance.intoto.jsonl \\\\)" || status=1
[ "$status" = 0 ] || exit 1
check_claim
echo "verify: OK, seal/seal.json is signed by $key, seal/seal.svg draws it, nothing in the folder is unsealed, and the outputs and run_manifest.json are the sealed ones$([ -f "$seal_dir/log-proof.json" ] && echo "; the issuer's log holds the seal in a checkpoint $key signed")"
`;

/**
 * SHA-256 of every verify.sh a runner release writes (issue 23 item 3). `svc seal verify`
 * refuses a run folder whose verify.sh is not one of them (`VERIFY_SCRIPT_NOT_RELEASED`).
 * A published list rather than a field of the seal payload: the issuer signs what the job
 * reports and cannot see the folder, so a hash the job reports would vouch for nothing more than
 * `outputs_sha256` already does (which covers verify.sh's bytes); the list is what the verifier
 * knows independently. A new script adds its hash here; a released hash is never removed.
 * The scripts of runners before issue 23 are not listed: they check neither seal.svg nor
 * uncovered paths.
 */
export const RELEASED_VERIFY_SCRIPT_SHA256: readonly string[] = [
  ...EARLIER_RELEASES,
  // issue 37 item 3: v6 draws the signed claim_strength and refuses a folder whose
  // results/summary.json states another, none or two (CLAIM_STRENGTH_MISMATCH), and names
  // SIGNATURE_INVALID. v5 stays released.
  "eee74952de781668bade8856ed39bf1a5a84b545ef5af810c96a29c64de2d6a4",
];

/** True when `bytes` is a verify.sh some runner release wrote. */
export function isReleasedVerifyScript(bytes: Uint8Array): boolean {
  return RELEASED_VERIFY_SCRIPT_SHA256.includes(sha256Hex(bytes));
}
