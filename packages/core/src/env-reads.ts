/**
 * The names of the environment variables a configuration reader looks at, recorded by running it
 * once against an environment that notes every name asked for (ARCHITECTURE.md convention 4: the
 * config module is the only reader, so what it asks for is what the process reads). Each seed
 * answers the names a reader needs before it reads further (a reader that stops at the first missing
 * required value, or reads a variable only in one mode, would hide the rest); the result is the
 * union over all seeds. Errors the reader throws are expected and ignored.
 */
export function recordEnvReads(
  read: (env: NodeJS.ProcessEnv) => unknown,
  ...seeds: Readonly<Record<string, string>>[]
): readonly string[] {
  const names = new Set<string>();
  for (const seed of seeds.length > 0 ? seeds : [{}]) recordOnce(read, seed, names);
  return Object.freeze([...names].sort());
}

function recordOnce(
  read: (env: NodeJS.ProcessEnv) => unknown,
  seed: Readonly<Record<string, string>>,
  names: Set<string>,
): void {
  const env = new Proxy({} as NodeJS.ProcessEnv, {
    get(_target, name) {
      if (typeof name !== "string") return undefined;
      names.add(name);
      return seed[name];
    },
    has(_target, name) {
      if (typeof name === "string") names.add(name);
      return typeof name === "string" && name in seed;
    },
  });
  try {
    read(env);
  } catch {
    // a refused configuration still read what it refused
  }
}
