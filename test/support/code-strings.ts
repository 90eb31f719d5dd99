// A small TypeScript lexer for source scans (test/run-folder-contract.test.ts): the string
// literals of a file, each with the call it is an argument of, and the code without comments.
// typescript 7 ships no JavaScript parser API, and a regular expression over raw text cannot tell
// a comment or a URL's `//` from code. Handles comments, '…', "…", `…${…}…` (nested), and regular
// expression literals (a `/` where an operand is expected).

/** One string literal's text (a template's chunks separately), its line, and the call it is in. */
export interface CodeString {
  readonly text: string;
  readonly line: number;
  /** The callee of the innermost open call, e.g. `join`, `path.join`; "" outside any call. */
  readonly callee: string;
}

export interface LexedSource {
  readonly strings: readonly CodeString[];
  /** The source with comments blanked (strings kept), line breaks kept. */
  readonly code: string;
}

const OPERAND_END = /[\w$)\]}"'`]$/;
const KEYWORDS_BEFORE_OPERAND = /(?:^|[^\w$])(?:return|typeof|case|in|of|void|delete|throw|new|yield|await)$/;

export function lexSource(source: string): LexedSource {
  const strings: CodeString[] = [];
  let code = "";
  let line = 1;
  // open brackets: "(" with its callee, "{" (a block or object), "${" (a template expression)
  const stack: { kind: "(" | "{" | "${"; callee: string }[] = [];
  let i = 0;
  const callee = () => [...stack].reverse().find((entry) => entry.kind === "(")?.callee ?? "";
  const emit = (text: string) => {
    code += text;
    for (const char of text) if (char === "\n") line++;
  };
  /** Reads a template from after its opening backtick, or after a `}` closing an expression. */
  const readTemplateChunk = (): void => {
    let text = "";
    const start = line;
    while (i < source.length) {
      const char = source[i] as string;
      if (char === "\\") {
        text += source.slice(i, i + 2);
        emit(source.slice(i, i + 2));
        i += 2;
        continue;
      }
      if (char === "`") {
        strings.push({ text, line: start, callee: callee() });
        emit(char);
        i++;
        return;
      }
      if (char === "$" && source[i + 1] === "{") {
        strings.push({ text, line: start, callee: callee() });
        stack.push({ kind: "${", callee: "" });
        emit("${");
        i += 2;
        return;
      }
      text += char;
      emit(char);
      i++;
    }
  };
  while (i < source.length) {
    const char = source[i] as string;
    const next = source[i + 1];
    if (char === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      i = end === -1 ? source.length : end;
      continue;
    }
    if (char === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const comment = source.slice(i, end === -1 ? source.length : end + 2);
      emit(comment.replace(/[^\n]/g, " "));
      i += comment.length;
      continue;
    }
    if (char === '"' || char === "'") {
      let j = i + 1;
      let text = "";
      while (j < source.length && source[j] !== char && source[j] !== "\n") {
        if (source[j] === "\\") {
          text += source.slice(j, j + 2);
          j += 2;
        } else text += source[j++];
      }
      strings.push({ text, line, callee: callee() });
      emit(source.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (char === "`") {
      emit(char);
      i++;
      readTemplateChunk();
      continue;
    }
    if (char === "/") {
      const before = code.trimEnd();
      if (!OPERAND_END.test(before) || KEYWORDS_BEFORE_OPERAND.test(before)) {
        // a regular expression literal: up to its closing unescaped `/` outside a class
        let j = i + 1;
        let inClass = false;
        while (j < source.length && source[j] !== "\n") {
          const c = source[j];
          if (c === "\\") j += 2;
          else {
            if (c === "[") inClass = true;
            else if (c === "]") inClass = false;
            else if (c === "/" && !inClass) break;
            j++;
          }
        }
        emit(source.slice(i, j + 1));
        i = j + 1;
        continue;
      }
    }
    if (char === "(") {
      const name = /([\w$.]+)\s*$/.exec(code)?.[1] ?? "";
      stack.push({ kind: "(", callee: name });
    } else if (char === "{") stack.push({ kind: "{", callee: "" });
    else if (char === ")" || char === "}") {
      const top = stack.pop();
      if (char === "}" && top?.kind === "${") {
        emit(char);
        i++;
        readTemplateChunk();
        continue;
      }
    }
    emit(char);
    i++;
  }
  return { strings, code };
}
