import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeTempDir } from "@svc/testing";
import { RunnerError } from "../../src/runner-error.ts";

type TestContext = { after: (fn: () => unknown) => void };

/** `text` written as `name` in a temp folder (removed after the test), then read by `read`. */
export async function readTableFile<T>(
  t: TestContext,
  name: string,
  text: string,
  read: (path: string) => Promise<T>,
): Promise<T> {
  const dir = await makeTempDir(`${name.replace(/\.\w+$/, "")}-`, t);
  const path = join(dir, name);
  await writeFile(path, text);
  return read(path);
}

/** The RunnerError `read` refuses with; the test fails if it accepts. */
export async function refusalOf(read: () => Promise<unknown>): Promise<RunnerError> {
  try {
    await read();
  } catch (error) {
    assert.ok(error instanceof RunnerError, String(error));
    return error;
  }
  assert.fail("the table was accepted");
}
