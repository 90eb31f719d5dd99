import { CodedError } from "./coded-error.ts";

/** Stable codes for every error the core library raises (ARCHITECTURE.md convention 6). */
export type CoreErrorCode =
  | "CANONICAL_JSON_UNSUPPORTED"
  | "TREE_UNSUPPORTED_ENTRY"
  | "KEY_INVALID"
  | "RUN_FILE_INVALID"
  | "SEAL_PAYLOAD_INVALID"
  | "SEAL_RENDER_INVALID"
  | "SEAL_TEXT_UNSAFE";

/** The one base error of `@svc/core`; callers switch on `code`, never on the message. */
export class CoreError extends CodedError<CoreErrorCode> {}
